import { MAX_FIELDS_PER_TABLE } from '@contracts';
import type { Sql } from '@platform/persistence';
import { TABLES_SCHEMA } from '../tables-schema';
import type { Field } from '../fields/field';
import { ident, qualified, rebuildTableName } from './identifiers';
import { indexRowsTable, ROW_COLUMNS, rowsTableColumns } from './rows-ddl';

/** Postgres's limit on a table's column numbers, which dropped columns keep holding. */
const POSTGRES_COLUMN_LIMIT = 1600;

/**
 * Column numbers a rows table has used, dropped columns included: DROP COLUMN only hides a column, and
 * ADD COLUMN always takes the next number, so a table whose fields come and go runs out of numbers.
 */
async function usedColumnNumbers(db: Sql, storageName: string): Promise<number> {
  const { rows } = await db.query<{ used: number }>(
    `SELECT COALESCE(max(attnum), 0)::int AS used FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0`,
    [`${TABLES_SCHEMA}.${ident(storageName)}`],
  );
  return rows[0].used;
}

/**
 * Whether a change adding `adding` columns must rebuild the table instead: it must, when afterwards fewer
 * numbers would be left than a table of the most fields needs, so the next change always fits too.
 */
export async function needsRebuild(db: Sql, storageName: string, adding: number): Promise<boolean> {
  return (await usedColumnNumbers(db, storageName)) + adding > POSTGRES_COLUMN_LIMIT - MAX_FIELDS_PER_TABLE;
}

/**
 * Replaces a rows table with a fresh one holding only `fields`' columns, numbered from 1 again. In the
 * caller's transaction: the old table is locked first, so writers wait and then write to the new one
 * (Postgres looks a waiting statement's table up again by name), and nothing written is lost. Rows keep
 * their id, created_at and updated_at; the primary key and every index are built again after the copy.
 * `kept` are the fields the old table already holds (their values are copied); `added` start empty.
 */
export async function rebuildRowsTable(db: Sql, tableId: string, storageName: string, kept: readonly Field[], added: readonly Field[]): Promise<void> {
  const table = qualified(storageName);
  const fresh = rebuildTableName(tableId);
  const fields = [...kept, ...added];
  const columns = [...ROW_COLUMNS, ...kept.map((field) => field.column)].map(ident).join(', ');
  await db.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  await db.query(`CREATE TABLE ${qualified(fresh)} (${rowsTableColumns(fields)})`);
  await db.query(`INSERT INTO ${qualified(fresh)} (${columns}) SELECT ${columns} FROM ${table}`);
  await db.query(`DROP TABLE ${table}`);
  await db.query(`ALTER TABLE ${qualified(fresh)} RENAME TO ${ident(storageName)}`);
  await indexRowsTable(db, tableId, storageName, fields);
}
