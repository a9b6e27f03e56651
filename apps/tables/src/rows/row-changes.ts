import { isDeepStrictEqual } from 'node:util';
import type { Field } from '../fields/field';

/** A value in the form a client sees it (dates as ISO strings, objects with no key order). */
function asJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/**
 * The values of a PATCH that differ from the row as it is: only these are written, and their slugs are
 * the event's `changed_fields`. An empty answer means the PATCH changes nothing.
 */
export function changedValues(values: Map<Field, unknown>, before: Record<string, unknown>): Map<Field, unknown> {
  const changed = new Map<Field, unknown>();
  for (const [field, value] of values) {
    if (!isDeepStrictEqual(asJson(value), asJson(before[field.slug]))) changed.set(field, value);
  }
  return changed;
}
