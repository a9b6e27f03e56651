import { Condition, FilterNode, targetType } from '@platform/row-filter';
import { comparable, Comparable, FieldSlot, fieldSlot, inList } from './row-filter-match';

/**
 * Something a row must have for a filter to match it, that an index can look up by the row's value
 * instead of running the filter: one value of a field (`eq`, `in`), one instant of a datetime field,
 * or text of a field starting (case-insensitively) with a prefix (`starts_with`).
 */
export type Need =
  | { kind: 'value'; slot: FieldSlot; value: Comparable }
  | { kind: 'instant'; slot: FieldSlot; value: number }
  | { kind: 'prefix'; slot: FieldSlot; prefix: string };

/** An `and` is looked up by the part of it that lets the fewest rows through; a prefix lets more through than a value. */
const PREFIX_COST = 4;

function cost(needs: readonly Need[]): number {
  let sum = 0;
  for (const need of needs) sum += need.kind === 'prefix' ? PREFIX_COST : 1;
  return sum;
}

/**
 * A condition's needs, with the meaning `compileRowMatcher` gives the condition: undefined when it can
 * match a row by something else than one of a few values (`ne`, `nin`, an order, `contains`, `is_empty`,
 * `eq null`, a multi_select).
 */
function conditionNeeds(condition: Condition): Need[] | undefined {
  // Webhook filters name fields only; the matcher matches nothing else.
  if (condition.target.kind !== 'field') return [];
  const type = targetType(condition.target);
  if (type === 'multi_select') return undefined;
  const slot = fieldSlot(condition.target.field.slug);
  const operand = condition.value;
  switch (condition.operator) {
    case 'eq': {
      if (operand === null) return undefined;
      const right = comparable(type, operand);
      if (type === 'datetime') {
        // `===` between instants: an operand that is no instant (undefined, NaN) equals nothing.
        return typeof right === 'number' && !Number.isNaN(right) ? [{ kind: 'instant', slot, value: right }] : [];
      }
      // The matcher's `row value === operand`: an operand that is no primitive would equal a missing value.
      if (right === undefined) return undefined;
      return typeof right === 'number' && Number.isNaN(right) ? [] : [{ kind: 'value', slot, value: right }];
    }
    case 'in': {
      // The matcher's Set and the index's Map both compare by SameValueZero.
      const values = inList(type, operand);
      if (type === 'datetime') return values.map((value) => ({ kind: 'instant', slot, value: value as number }));
      return values.map((value) => ({ kind: 'value', slot, value }));
    }
    case 'starts_with':
      return [{ kind: 'prefix', slot, prefix: String(operand).toLowerCase() }];
    default:
      return undefined;
  }
}

/**
 * What a row must meet for the filter to match it: one of these needs, a necessary condition and not a
 * sufficient one (the filter still decides); an empty list when the filter matches no row; undefined
 * when no short list is known, and the filter must be run for every row. An `and` needs what one of its
 * parts needs, an `or` what any of its parts needs (known only when it is known for every part).
 */
export function filterNeeds(node: FilterNode): Need[] | undefined {
  if (node.kind === 'condition') return conditionNeeds(node);
  const parts = node.items.map(filterNeeds);
  if (node.kind === 'or') return parts.some((part) => part === undefined) ? undefined : (parts as Need[][]).flat();
  let best: Need[] | undefined;
  for (const part of parts) if (part !== undefined && (best === undefined || cost(part) < cost(best))) best = part;
  return best;
}
