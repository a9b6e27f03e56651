import { Condition, FilterNode, targetType } from '@platform/row-filter';

/** Types whose empty value may also be `''`, and that `contains`/`starts_with` compare as text. */
const NOT_TEXT = new Set(['number', 'currency', 'date', 'datetime', 'checkbox', 'attachment', 'multi_select']);

type Comparable = number | string | boolean;

/** Datetimes compare as instants (a row's value and an operand may differ in precision); the rest as they are. */
function comparable(type: string, value: unknown): Comparable | undefined {
  if (value === null || value === undefined) return undefined;
  if (type === 'datetime') return typeof value === 'string' ? Date.parse(value) : undefined;
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : undefined;
}

function equals(type: string, value: unknown, operand: unknown): boolean {
  const left = comparable(type, value);
  return left !== undefined && left === comparable(type, operand);
}

function isEmpty(type: string, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return value === '' && !NOT_TEXT.has(type);
}

function multiSelect(condition: Condition, value: unknown): boolean {
  const held = Array.isArray(value) ? (value as unknown[]) : null;
  const operand = condition.value;
  switch (condition.operator) {
    case 'eq':
      if (operand === null) return held === null;
      return held !== null && sameSet(held, operand as unknown[]);
    case 'ne':
      if (operand === null) return held !== null;
      return held === null || !sameSet(held, operand as unknown[]);
    case 'contains':
      return held !== null && held.includes(operand);
    case 'in':
      return held !== null && (operand as unknown[]).some((item) => held.includes(item));
    case 'nin':
      return held === null || !(operand as unknown[]).some((item) => held.includes(item));
    default:
      return isEmpty('multi_select', value) === (operand === true);
  }
}

function sameSet(held: unknown[], wanted: unknown[]): boolean {
  return held.every((item) => wanted.includes(item)) && wanted.every((item) => held.includes(item));
}

function scalar(condition: Condition, value: unknown): boolean {
  const type = targetType(condition.target);
  const operand = condition.value;
  switch (condition.operator) {
    case 'eq':
      return operand === null ? value === null || value === undefined : equals(type, value, operand);
    case 'ne':
      return operand === null ? value !== null && value !== undefined : !equals(type, value, operand);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const left = comparable(type, value);
      const right = comparable(type, operand);
      if (left === undefined || right === undefined || typeof left !== typeof right) return false;
      if (condition.operator === 'gt') return left > right;
      if (condition.operator === 'gte') return left >= right;
      return condition.operator === 'lt' ? left < right : left <= right;
    }
    case 'in':
      return (operand as unknown[]).some((item) => equals(type, value, item));
    case 'nin':
      return !(operand as unknown[]).some((item) => equals(type, value, item));
    case 'contains':
      return typeof value === 'string' && value.toLowerCase().includes(String(operand).toLowerCase());
    case 'starts_with':
      return typeof value === 'string' && value.toLowerCase().startsWith(String(operand).toLowerCase());
    case 'is_empty':
      return isEmpty(type, value) === (operand === true);
  }
}

/**
 * Whether a row's data (as an event carries it, keyed by slug) matches a checked filter, with the meaning
 * the rows list gives it in SQL: a missing value fails every comparison but `ne`, `nin` and `is_empty`,
 * text matching is case-insensitive for `contains`/`starts_with`, and a multi_select value is a set.
 */
export function rowMatches(node: FilterNode, row: Readonly<Record<string, unknown>>): boolean {
  if (node.kind !== 'condition') return node.kind === 'and' ? node.items.every((item) => rowMatches(item, row)) : node.items.some((item) => rowMatches(item, row));
  // Webhook filters name fields only: events do not carry the row's timestamps.
  if (node.target.kind !== 'field') return false;
  const value = row[node.target.field.slug];
  return targetType(node.target) === 'multi_select' ? multiSelect(node, value) : scalar(node, value);
}
