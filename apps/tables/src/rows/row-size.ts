import { ROW_DATA_MAX_BYTES } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';

/** Refuses a row whose `data`, as JSON, would pass ROW_DATA_MAX_BYTES; `path` names it in the error. */
export function checkRowSize(data: Record<string, unknown>, path = 'data'): void {
  if (Buffer.byteLength(JSON.stringify(data)) > ROW_DATA_MAX_BYTES) {
    throw AppError.validation(path, `is larger than ${ROW_DATA_MAX_BYTES / 1024} KiB as JSON`);
  }
}

/** checkRowSize of a whole row given as values by field (a field without one is null). */
export function checkRowValuesSize(fields: readonly Field[], values: Map<Field, unknown>, path = 'data'): void {
  checkRowSize(Object.fromEntries(fields.map((field) => [field.slug, values.get(field) ?? null])), path);
}
