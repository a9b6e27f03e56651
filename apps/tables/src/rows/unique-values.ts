import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '@platform/errors';
import { isPgError, PgErrorCode } from '@platform/persistence';
import { fieldUniqueIndexName } from '../storage/identifiers';
import type { Field } from '../fields/field';
import type { UserTable } from '../tables/user-table';
import { columnParameter } from './row-record';

/** The rows of one write, in request order, with where each one's values sit in the request body. */
export interface WrittenItems {
  values: ReadonlyArray<Map<Field, unknown>>;
  /** `data` for a single row, `rows[3].data` for an item of a batch. */
  pathOf(index: number): string;
}

/**
 * Runs a row write; a value that an `is_unique` field's index refuses (another row, or another item of
 * the same batch, holds it) becomes the contract's CONFLICT naming the field where the request holds
 * it: `data.<slug>`, or `rows[i].data.<slug>` for the batch item that repeats the value. The index
 * decides, so two concurrent writers of one value cannot both succeed.
 */
export async function withUniqueValues<T>(table: UserTable, write: () => Promise<T>, items?: WrittenItems): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const refused = isPgError(error, PgErrorCode.UniqueViolation) ? (error as { constraint?: string; detail?: string }) : undefined;
    const field = refused?.constraint ? table.fields.find((candidate) => fieldUniqueIndexName(candidate.id) === refused.constraint) : undefined;
    if (!field) throw error;
    const path = `${items ? itemPath(field, items, refused?.detail) : 'data'}.${field.slug}`;
    throw new AppError(ErrorCode.Conflict, `Another row already has this value of ${field.slug}`, { field: path, reason: 'must be unique in this table' });
  }
}

/**
 * The item holding the refused key, read from the violation's detail (`Key (<expression>)=(<key>)
 * already exists.`): the last item with that key, so an in-batch repeat names the repeating item.
 */
function itemPath(field: Field, items: WrittenItems, detail = ''): string {
  const held = /\)=\((.*)\) already exists\.?$/s.exec(detail)?.[1];
  const key = held !== undefined && field.fieldType === 'number' ? String(Number(held)) : held;
  let found = items.values.length === 1 ? 0 : -1;
  if (key !== undefined) items.values.forEach((values, i) => (indexKey(field, values.get(field)) === key ? (found = i) : undefined));
  return found < 0 ? 'data' : items.pathOf(found);
}

/** What the unique index holds for a value (see `uniqueIndexSql`): md5 of the text, or the number. */
function indexKey(field: Field, value: unknown): string | undefined {
  const stored = columnParameter(field, value);
  if (stored === null) return undefined;
  if (field.fieldType === 'number') return String(Number(stored));
  return createHash('md5').update(String(stored), 'utf8').digest('hex');
}
