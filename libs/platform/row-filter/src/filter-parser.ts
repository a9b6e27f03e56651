import type { FieldType } from '@contracts';
import { AppError, assertStorableJson } from '@platform/errors';
import secureJson from 'secure-json-parse';
import { InvalidValue, parseDate, parseDateTime } from './calendar-values';
import { Condition, FILTER_OPERATORS, FilterField, FilterNode, FilterOperator, FilterTarget, targetType } from './filter-ast';

/** Bounds that keep any filter cheap to parse and to plan. */
export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_CONDITIONS = 50;
export const MAX_FILTER_LIST = 100;
const MAX_OPERAND_LENGTH = 1_000;

const TEXTUAL: ReadonlySet<FieldType> = new Set(['text', 'long_text', 'email', 'url', 'phone', 'select']);
const ORDERED: ReadonlySet<FieldType> = new Set(['number', 'currency', 'date', 'datetime', ...TEXTUAL]);

function allowedOperators(type: FieldType): ReadonlySet<FilterOperator> {
  if (type === 'attachment') return new Set(['is_empty']);
  const ops: FilterOperator[] = ['eq', 'ne', 'in', 'nin', 'is_empty'];
  if (ORDERED.has(type)) ops.push('gt', 'gte', 'lt', 'lte');
  if (TEXTUAL.has(type)) ops.push('contains', 'starts_with');
  if (type === 'multi_select') ops.push('contains');
  return new Set(ops);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One scalar operand of the target's type, normalized like a stored value. */
function scalar(type: FieldType, value: unknown, path: string): unknown {
  const wrong = (what: string): never => {
    throw AppError.validation(path, `must be ${what}`);
  };
  switch (type) {
    case 'number':
    case 'currency':
      return typeof value === 'number' && Number.isFinite(value) ? value : wrong('a finite number');
    case 'checkbox':
      return typeof value === 'boolean' ? value : wrong('true or false');
    case 'date':
    case 'datetime':
      try {
        return type === 'date' ? parseDate(value) : parseDateTime(value);
      } catch (error) {
        if (error instanceof InvalidValue) wrong(type === 'date' ? 'a date YYYY-MM-DD' : 'an ISO 8601 date-time with an offset or Z');
        throw error;
      }
    default:
      return typeof value === 'string' && value.length <= MAX_OPERAND_LENGTH ? value : wrong(`a string of at most ${MAX_OPERAND_LENGTH} characters`);
  }
}

function list(type: FieldType, value: unknown, path: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_FILTER_LIST) {
    throw AppError.validation(path, `must be an array of 1 to ${MAX_FILTER_LIST} values`);
  }
  const scalarType = type === 'multi_select' ? 'select' : type;
  return value.map((item, i) => scalar(scalarType, item, `${path}[${i}]`));
}

function operand(type: FieldType, operator: FilterOperator, value: unknown, path: string): unknown {
  if (operator === 'is_empty') {
    if (typeof value !== 'boolean') throw AppError.validation(path, 'must be true or false');
    return value;
  }
  if (operator === 'in' || operator === 'nin') return list(type, value, path);
  if (value === null && (operator === 'eq' || operator === 'ne')) return null;
  if (type === 'multi_select') return operator === 'contains' ? scalar('select', value, path) : list(type, value, path);
  return scalar(type, value, path);
}

class FilterParser<F extends FilterField> {
  private conditions = 0;
  private readonly bySlug: Map<string, F>;

  constructor(
    fields: readonly F[],
    private readonly timestamps: boolean,
  ) {
    this.bySlug = new Map(fields.map((field) => [field.slug, field]));
  }

  group(value: unknown, path: string, depth: number): FilterNode<F>[] {
    if (!isPlainObject(value)) throw AppError.validation(path, 'must be a JSON object of conditions');
    if (depth > MAX_FILTER_DEPTH) throw AppError.validation(path, `nests deeper than ${MAX_FILTER_DEPTH} levels`);
    const nodes: FilterNode<F>[] = [];
    for (const [key, inner] of Object.entries(value)) {
      const keyPath = `${path}.${key}`;
      if (key === 'and' || key === 'or') {
        if (!Array.isArray(inner) || inner.length === 0) throw AppError.validation(keyPath, 'must be a non-empty array of filters');
        const items = inner.map((item, i) => this.collapse(this.group(item, `${keyPath}[${i}]`, depth + 1)));
        nodes.push({ kind: key, items });
        continue;
      }
      const target = this.target(key, keyPath);
      nodes.push(...this.conditionsOf(target, inner, keyPath));
    }
    return nodes;
  }

  collapse(nodes: FilterNode<F>[]): FilterNode<F> {
    return nodes.length === 1 ? nodes[0] : { kind: 'and', items: nodes };
  }

  private target(key: string, path: string): FilterTarget<F> {
    if (key === 'created_at' || key === 'updated_at') {
      if (!this.timestamps) throw AppError.validation(path, 'is not available here: events carry the row fields only');
      return { kind: 'timestamp', column: key };
    }
    const field = this.bySlug.get(key);
    if (!field) throw AppError.validation(path, 'is not a field of this table');
    return { kind: 'field', field };
  }

  private conditionsOf(target: FilterTarget<F>, value: unknown, path: string): Condition<F>[] {
    const type = targetType(target);
    if (!isPlainObject(value)) {
      const operator = 'eq';
      if (!allowedOperators(type).has(operator)) throw AppError.validation(path, `cannot be compared by equality; use is_empty`);
      return [this.condition(target, operator, operand(type, operator, value, path))];
    }
    const entries = Object.entries(value);
    if (entries.length === 0) throw AppError.validation(path, 'must hold at least one operator');
    return entries.map(([name, inner]) => {
      const opPath = `${path}.${name}`;
      if (!(FILTER_OPERATORS as readonly string[]).includes(name)) throw AppError.validation(opPath, `is not an operator (${FILTER_OPERATORS.join(', ')})`);
      const operator = name as FilterOperator;
      if (!allowedOperators(type).has(operator)) throw AppError.validation(opPath, `does not apply to a ${type} field`);
      return this.condition(target, operator, operand(type, operator, inner, opPath));
    });
  }

  private condition(target: FilterTarget<F>, operator: FilterOperator, value: unknown): Condition<F> {
    this.conditions += 1;
    if (this.conditions > MAX_FILTER_CONDITIONS) throw AppError.validation('filter', `holds more than ${MAX_FILTER_CONDITIONS} conditions`);
    return { kind: 'condition', target, operator, value };
  }
}

/** Where a filter is used: row lists also test the row timestamps; webhooks only see an event's row fields. */
export interface FilterScope {
  timestamps: boolean;
}

/**
 * A filter as JSON (already parsed) -> a checked filter tree over these fields, or undefined when it holds
 * no condition. Every refusal is a VALIDATION_ERROR whose field starts with `filter`.
 */
export function checkFilter<F extends FilterField>(value: unknown, fields: readonly F[], scope: FilterScope = { timestamps: true }): FilterNode<F> | undefined {
  assertStorableJson(value, 'filter');
  const parser = new FilterParser(fields, scope.timestamps);
  const nodes = parser.group(value, 'filter', 1);
  return nodes.length === 0 ? undefined : parser.collapse(nodes);
}

/** The `filter` query parameter -> a checked filter tree, or undefined when there is none. */
export function parseFilter<F extends FilterField>(text: string | undefined, fields: readonly F[]): FilterNode<F> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw AppError.validation('filter', 'must be a URL-encoded JSON object');
  }
  return checkFilter(value, fields);
}
