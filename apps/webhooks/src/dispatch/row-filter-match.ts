import { Condition, FilterNode, targetType } from '@platform/row-filter';

/** Types whose empty value may also be `''`, and that `contains`/`starts_with` compare as text. */
const NOT_TEXT = new Set(['number', 'currency', 'date', 'datetime', 'checkbox', 'attachment', 'multi_select']);

export type Comparable = number | string | boolean;

/** Datetimes compare as instants (a row's value and an operand may differ in precision); the rest as they are. */
export function comparable(type: string, value: unknown): Comparable | undefined {
  if (value === null || value === undefined) return undefined;
  if (type === 'datetime') return typeof value === 'string' ? Date.parse(value) : undefined;
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : undefined;
}

/** The values of an `in`/`nin` list a row's value is looked up among (as a Set or a Map: SameValueZero). */
export function inList(type: string, operand: unknown): Comparable[] {
  // Primitives only: a missing value, null or an object is in no set.
  return (operand as unknown[]).map((item) => comparable(type, item)).filter((item): item is Comparable => item !== undefined);
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

/** A field slug as the compiled filters read it: by its number, the same in every event's row. */
export interface FieldSlot {
  slug: string;
  index: number;
}

/** Grows with the distinct slugs that filters name, which the webhooks and their tables bound. */
const slots = new Map<string, FieldSlot>();

export function fieldSlot(slug: string): FieldSlot {
  let slot = slots.get(slug);
  if (!slot) {
    slot = { slug, index: slots.size };
    slots.set(slug, slot);
  }
  return slot;
}

const MISSING = Symbol('missing');

/**
 * A row as the filters of one event read it: each field looked up in the row once, and each text value
 * lower-cased once, however many webhooks' filters read it (the fan-out tests all of them against the
 * same row; a lookup by a slot's number costs a fraction of a lookup by name).
 */
export class EventRow {
  private readonly read: unknown[] = [];
  private readonly lowered: (string | undefined)[] = [];

  constructor(readonly values: Readonly<Record<string, unknown>>) {}

  /** The field's value; undefined when the row does not have the field. */
  at(slot: FieldSlot): unknown {
    let value = this.read[slot.index];
    if (value === undefined) {
      // Own properties only: a slug such as `constructor` is not the row's unless the row has it.
      value = Object.hasOwn(this.values, slot.slug) ? this.values[slot.slug] : MISSING;
      if (value === undefined) value = MISSING;
      this.read[slot.index] = value;
    }
    return value === MISSING ? undefined : value;
  }

  has(slot: FieldSlot): boolean {
    this.at(slot);
    return this.read[slot.index] !== MISSING;
  }

  lower(slot: FieldSlot, value: string): string {
    let lowered = this.lowered[slot.index];
    if (lowered === undefined) {
      lowered = value.toLowerCase();
      this.lowered[slot.index] = lowered;
    }
    return lowered;
  }
}

export type RowMatcher = (row: EventRow) => boolean;

const never: RowMatcher = () => false;

/** One comparison of a field that is not a multi_select, with its operand made ready once. */
function scalar(condition: Condition, slot: FieldSlot): RowMatcher {
  const type = targetType(condition.target);
  const operand = condition.value;
  switch (condition.operator) {
    case 'eq':
    case 'ne': {
      const right = comparable(type, operand);
      let equal: RowMatcher;
      if (operand === null)
        equal = (row) => {
          const value = row.at(slot);
          return value === null || value === undefined;
        };
      // Any other type compares a value as it is: a row's value equals the operand exactly when it is the same primitive.
      else if (type !== 'datetime') equal = (row) => row.at(slot) === right;
      else
        equal = (row) => {
          const left = comparable(type, row.at(slot));
          return left !== undefined && left === right;
        };
      return condition.operator === 'eq' ? equal : (row) => !equal(row);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const right = comparable(type, operand);
      if (right === undefined) return never;
      const operator = condition.operator;
      return (row) => {
        const left = type === 'datetime' ? comparable(type, row.at(slot)) : row.at(slot);
        if (typeof left !== typeof right) return false;
        const value = left as Comparable;
        return operator === 'gt' ? value > right : operator === 'gte' ? value >= right : operator === 'lt' ? value < right : value <= right;
      };
    }
    case 'in':
    case 'nin': {
      const wanted = new Set(inList(type, operand));
      const within: RowMatcher = type === 'datetime' ? (row) => wanted.has(comparable(type, row.at(slot)) as Comparable) : (row) => wanted.has(row.at(slot) as Comparable);
      return condition.operator === 'in' ? within : (row) => !within(row);
    }
    case 'contains':
    case 'starts_with': {
      const needle = String(operand).toLowerCase();
      const test = condition.operator === 'contains' ? (text: string) => text.includes(needle) : (text: string) => text.startsWith(needle);
      return (row) => {
        const value = row.at(slot);
        return typeof value === 'string' && test(row.lower(slot, value));
      };
    }
    case 'is_empty': {
      const wanted = operand === true;
      return (row) => isEmpty(type, row.at(slot)) === wanted;
    }
  }
}

/**
 * A checked filter made into a function of an event's row, with the meaning the rows list gives it in
 * SQL: a missing value fails every comparison but `ne`, `nin` and `is_empty`, text matching is
 * case-insensitive for `contains`/`starts_with`, and a multi_select value is a set. Operands are made
 * ready once, when the webhook's aim is compiled, not for every event.
 */
export function compileRowMatcher(node: FilterNode): RowMatcher {
  if (node.kind !== 'condition') {
    const items = node.items.map(compileRowMatcher);
    if (node.kind === 'and') {
      return (row) => {
        for (const item of items) if (!item(row)) return false;
        return true;
      };
    }
    return (row) => {
      for (const item of items) if (item(row)) return true;
      return false;
    };
  }
  // Webhook filters name fields only: events do not carry the row's timestamps.
  if (node.target.kind !== 'field') return never;
  const slot = fieldSlot(node.target.field.slug);
  if (targetType(node.target) === 'multi_select') return (row) => multiSelect(node, row.at(slot));
  return scalar(node, slot);
}
