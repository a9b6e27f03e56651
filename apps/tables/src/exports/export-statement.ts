import { stringify } from 'csv-stringify/sync';
import pg from 'pg';
import type { ExportFormat } from '@contracts';
import { AppError } from '@platform/errors';
import { checkFilter } from '@platform/row-filter';
import type { Field } from '../fields/field';
import { compileFilter } from '../filter/filter-compiler';
import { SqlLiterals } from '../filter/sql-literals';
import { RowOrder, SortOrder } from '../rows/row-sort';
import { ident, qualified } from '../storage/identifiers';
import type { UserTable } from '../tables/user-table';

/** Which rows an export writes, and how: what the client asked for, as stored with the export. */
export interface ExportSpec {
  format: ExportFormat;
  filter: Record<string, unknown> | null;
  sort: string | null;
  /** Null with `sort`: ascending; with neither, the rows come in no particular order. */
  order: SortOrder | null;
  fields: string[] | null;
}

/** The statement that streams an export's file, and the CSV header line that comes before its output. */
export interface ExportStatement {
  copy: string;
  header: string;
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Links of an attachment value: files held in our storage have no lasting address to write. */
const links = (column: string) => `(SELECT jsonb_agg(entry) FROM jsonb_array_elements(${column}) entry WHERE entry ? 'url')`;

/**
 * A field's value as a CSV cell the import reads back as the same value: checkboxes `true`/`false`,
 * datetimes as the API writes them, `multi_select` values joined by `;`, attachment links by spaces; the
 * rest as Postgres writes them (numbers exactly as stored, which JSON reads as the same number; dates as
 * `YYYY-MM-DD` under the ISO DateStyle the export sets). NULL is the empty cell.
 */
function csvCell(field: Field): string {
  const column = ident(field.column);
  switch (field.fieldType) {
    case 'datetime':
      return `to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC})`;
    case 'checkbox':
      return `${column}::text`;
    case 'multi_select':
      return `array_to_string(${column}, ';')`;
    case 'attachment':
      return `(SELECT string_agg(entry->>'url', ' ') FROM jsonb_array_elements(${column}) entry WHERE entry ? 'url')`;
    default:
      return column;
  }
}

/** A field's value in its JSON form, as the API answers it (a date is JSON text `YYYY-MM-DD`; attachments: their links). */
function jsonValue(field: Field): string {
  const column = ident(field.column);
  switch (field.fieldType) {
    case 'number':
    case 'currency':
      return `${column}::float8`;
    case 'datetime':
      return `to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC})`;
    case 'attachment':
      return links(column);
    default:
      return column;
  }
}

/** The fields an export writes, in order: those it names, or every field of the table. */
function exportedFields(table: UserTable, slugs: readonly string[] | null): Field[] {
  if (!slugs) return table.fields;
  return slugs.map((slug, i) => {
    const field = table.fields.find((candidate) => candidate.slug === slug);
    if (!field) throw AppError.validation(`fields[${i}]`, 'is not a field slug of this table');
    return field;
  });
}

/**
 * Checks an export against the table (through the rows list's own filter and order: the same grammar,
 * the same SQL) and builds its `COPY ... TO STDOUT`. Without `sort` or `order` no order is asked for, and
 * the rows come as stored, as fast as a plain COPY reads them (an ordered walk of a million rows costs
 * two to three times that). The select names neither slugs nor columns in its
 * output, so ORDER BY always means the table's columns. NDJSON is one JSON text per row: written as CSV
 * with control characters for quote and delimiter, which JSON text never holds raw, COPY sends each
 * line as it is, where its text format would double every backslash.
 */
export function exportStatement(table: UserTable, spec: ExportSpec): ExportStatement {
  const fields = exportedFields(table, spec.fields);
  const order = spec.sort === null && spec.order === null ? undefined : RowOrder.of(spec.sort ?? undefined, spec.order ?? undefined, table.fields);
  const filter = spec.filter === null ? undefined : checkFilter(spec.filter, table.fields);
  const where = filter ? ` WHERE ${compileFilter(filter, new SqlLiterals())}` : '';
  const source = `${qualified(table.storageName)}${where}${order ? ` ORDER BY ${order.orderBy}` : ''}`;
  if (spec.format === 'csv') {
    const cells = fields.map((field, i) => `${csvCell(field)} AS c${i}`);
    return {
      copy: `COPY (SELECT ${cells.join(', ')} FROM ${source}) TO STDOUT WITH (FORMAT csv)`,
      header: stringify([fields.map((field) => field.slug)], { record_delimiter: 'unix' }),
    };
  }
  const values = fields.map((field) => `${jsonValue(field)} AS ${pg.escapeIdentifier(field.slug)}`);
  return {
    copy: `COPY (SELECT (SELECT row_to_json(line) FROM (SELECT ${values.join(', ')}) line) FROM ${source}) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`,
    header: '',
  };
}
