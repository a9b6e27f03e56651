import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';

/** A CSV header's columns, each with the field it fills (undefined: skipped). */
export type ColumnMap = ReadonlyArray<Field | undefined>;

const BOOLEAN_CELLS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Maps a CSV header to the table's fields: `columns` first (a slug, or null to skip the column), then the
 * field whose name or slug equals the column, ignoring case. A column that maps to nothing, a repeated
 * column, or two columns filling one field is a VALIDATION_ERROR naming `columns`.
 */
export function mapColumns(header: readonly string[], fields: readonly Field[], columns: Record<string, string | null> = {}): ColumnMap {
  const bySlug = new Map(fields.map((field) => [field.slug, field]));
  for (const [column, slug] of Object.entries(columns)) {
    if (slug !== null && (typeof slug !== 'string' || !bySlug.has(slug))) throw AppError.validation('columns', `maps "${column}" to ${JSON.stringify(slug)}, which is not a field slug of this table (or null to skip it)`);
    if (!header.includes(column)) throw AppError.validation('columns', `names "${column}", which is not a column of the file's header`);
  }
  const seen = new Set<string>();
  const filled = new Map<Field, string>();
  return header.map((column) => {
    if (seen.has(column)) throw AppError.validation('columns', `the header names "${column}" twice`);
    seen.add(column);
    const wanted = column.toLowerCase();
    const field = Object.hasOwn(columns, column)
      ? (columns[column] === null ? undefined : bySlug.get(columns[column] as string))
      : fields.find((candidate) => candidate.slug === wanted || candidate.name.toLowerCase() === wanted);
    if (!field) {
      if (Object.hasOwn(columns, column)) return undefined;
      throw AppError.validation('columns', `the column "${column}" matches no field's name or slug; map it to a slug, or to null to skip it`);
    }
    const other = filled.get(field);
    if (other !== undefined) throw AppError.validation('columns', `the columns "${other}" and "${column}" both fill ${field.slug}`);
    filled.set(field, column);
    return field;
  });
}

/** A cell the field's type cannot read: the caller names the field and the line. */
export class UnreadableCell extends Error {}

/** A CSV cell as the JSON value a row write takes; an empty cell is no value (undefined). */
export function cellValue(field: Field, cell: string): unknown {
  if (cell === '') return undefined;
  switch (field.fieldType) {
    case 'number':
    case 'currency':
      if (!JSON_NUMBER.test(cell.trim())) throw new UnreadableCell('must be a number');
      return Number(cell.trim());
    case 'checkbox': {
      const value = BOOLEAN_CELLS[cell.trim().toLowerCase()];
      if (value === undefined) throw new UnreadableCell('must be true, false, 1, 0, yes or no');
      return value;
    }
    case 'multi_select':
      return cell.split(';').map((value) => value.trim()).filter((value) => value !== '');
    case 'attachment':
      return cell.split(/\s+/).filter((url) => url !== '').map((url) => ({ url, filename: fileNameOf(url) }));
    default:
      return cell;
  }
}

/** The last path segment of a link, as its file name. */
function fileNameOf(url: string): string {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name || 'file';
  } catch {
    return 'file';
  }
}
