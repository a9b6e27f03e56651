import { Condition as FieldCondition, FilterNode as FieldFilterNode, targetType } from '@platform/row-filter';
import type { Field } from '../fields/field';
import { ident } from '../storage/identifiers';
import { SqlParameters } from './sql-parameters';

/** Filters over the table's own fields, whose columns the SQL names. */
export type Condition = FieldCondition<Field>;
export type FilterNode = FieldFilterNode<Field>;

const COMPARISON = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** LIKE wildcards in the client's text are literal; `\` is Postgres's default LIKE escape. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function column(condition: Condition): string {
  return condition.target.kind === 'field' ? ident(condition.target.field.column) : ident(condition.target.column);
}

function multiSelect(condition: Condition, col: string, params: SqlParameters): string {
  const { operator, value } = condition;
  switch (operator) {
    case 'eq':
      if (value === null) return `${col} IS NULL`;
      return `(${col} @> ${params.add(value)}::text[] AND ${col} <@ ${params.add(value)}::text[])`;
    case 'ne':
      if (value === null) return `${col} IS NOT NULL`;
      return `(${col} IS NULL OR NOT (${col} @> ${params.add(value)}::text[] AND ${col} <@ ${params.add(value)}::text[]))`;
    case 'contains':
      return `${params.add(value)}::text = ANY(${col})`;
    case 'in':
      return `${col} && ${params.add(value)}::text[]`;
    case 'nin':
      return `(${col} IS NULL OR NOT (${col} && ${params.add(value)}::text[]))`;
    default:
      return emptiness(condition, col, `cardinality(${col}) = 0`);
  }
}

function emptiness(condition: Condition, col: string, emptyTest: string | undefined): string {
  const empty = emptyTest ? `(${col} IS NULL OR ${emptyTest})` : `${col} IS NULL`;
  return condition.value === true ? empty : `NOT ${empty}`;
}

function scalar(condition: Condition, col: string, params: SqlParameters): string {
  const { operator, value } = condition;
  const type = targetType(condition.target);
  const textual = !['number', 'currency', 'date', 'datetime', 'checkbox', 'attachment'].includes(type);
  switch (operator) {
    case 'eq':
      return value === null ? `${col} IS NULL` : `${col} = ${params.add(value)}`;
    case 'ne':
      return value === null ? `${col} IS NOT NULL` : `${col} IS DISTINCT FROM ${params.add(value)}`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `${col} ${COMPARISON[operator]} ${params.add(value)}`;
    case 'in':
      return `${col} = ANY(${params.add(value)})`;
    case 'nin':
      return `(${col} IS NULL OR NOT (${col} = ANY(${params.add(value)})))`;
    case 'contains':
      return `${col} ILIKE ${params.add(`%${likeLiteral(String(value))}%`)}`;
    case 'starts_with':
      return `${col} ILIKE ${params.add(`${likeLiteral(String(value))}%`)}`;
    case 'is_empty':
      if (type === 'attachment') return emptiness(condition, col, `jsonb_array_length(${col}) = 0`);
      return emptiness(condition, col, textual ? `${col} = ''` : undefined);
  }
}

/**
 * A checked filter tree -> a SQL boolean expression over the rows table. Column names come from the
 * server-generated field columns, operators from a fixed table, and every value is a bind parameter.
 */
export function compileFilter(node: FilterNode, params: SqlParameters): string {
  if (node.kind !== 'condition') {
    const parts = node.items.map((item) => compileFilter(item, params));
    return `(${parts.join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
  }
  const col = column(node);
  return targetType(node.target) === 'multi_select' ? multiSelect(node, col, params) : scalar(node, col, params);
}
