import { ROW_DATA_MAX_BYTES } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';

/** Refuses a row whose `data`, as JSON, would pass ROW_DATA_MAX_BYTES; `path` names it in the error. */
export function checkRowSize(data: Record<string, unknown>, path = 'data'): void {
  if (Buffer.byteLength(JSON.stringify(data)) > ROW_DATA_MAX_BYTES) {
    throw AppError.validation(path, `is larger than ${ROW_DATA_MAX_BYTES / 1024} KiB as JSON`);
  }
}

/** The most UTF-8 bytes a JSON number takes (`-2.2250738585072014e-308`). */
const NUMBER_BYTES_AT_MOST = 24;

/**
 * At least the UTF-8 bytes of `value` as JSON, without writing it: a UTF-16 unit takes at most 6 bytes
 * (`\uXXXX`). Undefined for a value other than a string, number, boolean, null or a list of them.
 */
function jsonBytesAtMost(value: unknown): number | undefined {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case 'string':
      return 2 + 6 * value.length;
    case 'number':
      return NUMBER_BYTES_AT_MOST;
    case 'boolean':
      return 5;
  }
  if (!Array.isArray(value)) return undefined;
  let bytes = 2;
  for (const item of value) {
    const itemBytes = typeof item === 'object' && item !== null ? undefined : jsonBytesAtMost(item);
    if (itemBytes === undefined) return undefined;
    bytes += itemBytes + 1;
  }
  return bytes;
}

/** Whether the row's bound (jsonBytesAtMost of every value) is within ROW_DATA_MAX_BYTES: then it needs no measuring. */
function surelyWithinLimit(fields: readonly Field[], values: Map<Field, unknown>): boolean {
  let bound = 2;
  for (const field of fields) {
    const bytes = jsonBytesAtMost(values.get(field));
    if (bytes === undefined) return false;
    bound += 6 * field.slug.length + 4 + bytes;
  }
  return bound <= ROW_DATA_MAX_BYTES;
}

/** checkRowSize of a whole row given as values by field (a field without one is null), written out only when its bound does not settle it. */
export function checkRowValuesSize(fields: readonly Field[], values: Map<Field, unknown>, path = 'data'): void {
  if (surelyWithinLimit(fields, values)) return;
  checkRowSize(Object.fromEntries(fields.map((field) => [field.slug, values.get(field) ?? null])), path);
}
