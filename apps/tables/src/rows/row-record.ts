import type { RowView } from '@contracts';
import { AttachmentDraft } from '../attachments/attachment-entries';
import type { Field } from '../fields/field';
import { COLUMN_KINDS } from '../storage/column-types';
import { ident } from '../storage/identifiers';

/**
 * Output names differ from column names on purpose: ORDER BY resolves a bare name to an output column
 * first, and `f_x::float8 AS f_x` would make the sort use the cast expression instead of the index.
 */
function outputName(field: Field): string {
  return `o_${field.column}`;
}

/** The select list of a rows table: system columns, then every field in its JSON form. */
export function rowSelectList(fields: readonly Field[]): string {
  const columns = fields.map((field) => `${COLUMN_KINDS[field.fieldType].selectExpression(ident(field.column))} AS ${ident(outputName(field))}`);
  return ['id', 'created_at', 'updated_at', ...columns].join(', ');
}

export type RowRecord = Record<string, unknown> & { id: string; created_at: Date; updated_at: Date };

/** Every field of the table appears in `data`, null when unset. */
export function rowData(fields: readonly Field[], record: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) data[field.slug] = record[outputName(field)] ?? null;
  return data;
}

/** Row data from freshly validated values, in the same shape as one read back. */
export function rowDataOf(fields: readonly Field[], values: Map<Field, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) data[field.slug] = values.has(field) ? values.get(field) : null;
  return data;
}

/**
 * A row's value of `field`, by the field's id: creates gathered from several requests may each hold their
 * own copy of the same table version (the same Field object, the common case, is found at once).
 */
export function valueOfField(values: Map<Field, unknown>, field: Field): unknown {
  if (values.has(field)) return values.get(field);
  for (const [held, value] of values) if (held.id === field.id) return value;
  return undefined;
}

/**
 * The record a create's statement would read back, from the values it wrote (the shape of rowDataOf) and
 * the time it wrote them (a new row's `created_at` and `updated_at` are both the statement's `now()`).
 */
export function writtenRecord(fields: readonly Field[], id: string, values: Map<Field, unknown>, at: Date): RowRecord {
  const record: RowRecord = { id, created_at: at, updated_at: at };
  for (const field of fields) record[outputName(field)] = valueOfField(values, field) ?? null;
  return record;
}

export function rowView(fields: readonly Field[], record: RowRecord): RowView {
  return {
    id: record.id,
    data: rowData(fields, record),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

/** A normalized value as a bind parameter of its column's type. */
export function columnParameter(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof AttachmentDraft) throw new Error(`attachment value of ${field.slug} reached storage before AttachmentFiles.settle`);
  return field.fieldType === 'attachment' ? JSON.stringify(value) : value;
}
