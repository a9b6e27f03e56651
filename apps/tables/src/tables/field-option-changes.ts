import { AppError } from '@platform/errors';
import type { Sql } from '@platform/persistence';
import type { Field } from '../fields/field';
import { ident, qualified } from '../storage/identifiers';
import { forgetPendingIndex, recordPendingIndexes, yieldIndexBuilds } from '../storage/pending-indexes';
import { dropSearchIndex, searchIndex, setUniqueIndex } from '../storage/rows-ddl';
import type { UserTable } from './user-table';

/** Values a select or multi_select field loses in this change. */
function removedValues(current: Field, next: Field): string[] {
  if (current.fieldType !== 'select' && current.fieldType !== 'multi_select') return [];
  const kept = new Set(next.options.values ?? []);
  return (current.options.values ?? []).filter((value) => !kept.has(value));
}

/** The precision stored values must be rounded to, when the change makes it coarser (or sets one). */
function coarserPrecision(current: Field, next: Field): number | undefined {
  if (current.fieldType !== 'number' && current.fieldType !== 'currency') return undefined;
  const to = next.options.precision;
  const from = current.options.precision;
  return to !== undefined && (from === undefined || to < from) ? to : undefined;
}

/** Whether two rows hold the same value of the field, or would once rounded to `precision`. */
async function hasDuplicates(db: Sql, table: UserTable, field: Field, precision?: number): Promise<boolean> {
  const column = ident(field.column);
  const value = precision === undefined ? column : `round(${column}, $1)`;
  const { rowCount } = await db.query(
    `SELECT 1 FROM ${qualified(table.storageName)} WHERE ${column} IS NOT NULL GROUP BY ${value} HAVING count(*) > 1 LIMIT 1`,
    precision === undefined ? [] : [precision],
  );
  return Boolean(rowCount);
}

/**
 * Keeps stored values valid under a field's new options, inside the table change's transaction (the
 * table is held FOR UPDATE, so no row write interleaves): removing a select value that rows still hold
 * is refused, naming `<path>.options.values`; a coarser precision re-rounds the stored values (numeric
 * `round` goes half away from zero, like values written under the new options), refused on a unique field
 * whose values it would make equal, naming `<path>.options.precision`; turning `is_unique` on
 * over duplicates is refused, naming `<path>.options.is_unique`, otherwise it adds or drops the index.
 * Turning `searchable` on builds the trigram index after commit, as for an added field (a table of
 * millions of rows takes minutes); turning it off drops it now.
 */
export async function applyOptionChange(db: Sql, table: UserTable, current: Field, next: Field, path: string): Promise<void> {
  const column = ident(current.column);
  const removed = removedValues(current, next);
  if (removed.length > 0) {
    const { rows } = await db.query<{ value: string }>(
      current.fieldType === 'select'
        ? `SELECT ${column} AS value FROM ${qualified(table.storageName)} WHERE ${column} = ANY($1::text[]) LIMIT 1`
        : `SELECT held AS value FROM ${qualified(table.storageName)}, unnest(${column}) AS held WHERE held = ANY($1::text[]) LIMIT 1`,
      [removed],
    );
    if (rows[0]) throw AppError.validation(`${path}.options.values`, `cannot drop ${JSON.stringify(rows[0].value)}: rows still hold it`);
  }
  const wasUnique = Boolean(current.options.is_unique);
  const unique = Boolean(next.options.is_unique);
  // Dropped first, so that re-rounding a field that stops being unique cannot collide in its index.
  if (wasUnique && !unique) await setUniqueIndex(db, table.storageName, next, false);
  const precision = coarserPrecision(current, next);
  if (precision !== undefined) {
    // A unique field's index would refuse the rounding midway: refused here, naming what the client changed.
    if (wasUnique && unique && (await hasDuplicates(db, table, current, precision))) {
      throw AppError.validation(`${path}.options.precision`, 'would round values of this unique field to the same value');
    }
    await db.query(`UPDATE ${qualified(table.storageName)} SET ${column} = round(${column}, $1) WHERE ${column} <> round(${column}, $1)`, [precision]);
  }
  if (unique && !wasUnique) {
    // Checked after re-rounding: values made equal by a coarser precision count as duplicates.
    if (await hasDuplicates(db, table, current)) throw AppError.validation(`${path}.options.is_unique`, 'some rows share a value of this field');
    await setUniqueIndex(db, table.storageName, next, true);
  }
  await applySearchability(db, table, Boolean(current.options.searchable), next);
}

async function applySearchability(db: Sql, table: UserTable, wasSearchable: boolean, next: Field): Promise<void> {
  const searchable = Boolean(next.options.searchable);
  if (searchable === wasSearchable) return;
  const index = searchIndex(table.storageName, next);
  if (searchable) return recordPendingIndexes(db, table.id, [index]);
  // Its build may be under way: cancelled first, or the DROP would wait for it with the table locked.
  await yieldIndexBuilds(db, table.id);
  await forgetPendingIndex(db, index.name);
  await dropSearchIndex(db, next);
}
