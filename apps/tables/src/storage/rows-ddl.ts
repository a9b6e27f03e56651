import type { Sql } from '@platform/persistence';
import type { Field } from '../fields/field';
import { COLUMN_KINDS } from './column-types';
import { fieldIndexName, fieldSearchIndexName, fieldUniqueIndexName, ident, qualified, tableIndexName } from './identifiers';

function columnDefinition(field: Field): string {
  return `${ident(field.column)} ${COLUMN_KINDS[field.fieldType].sqlType}`;
}

/** An index a field's reads want, by name, with what builds it (`CREATE INDEX <concurrently> <definition>`). */
export interface FieldIndex {
  fieldId: string;
  name: string;
  definition: string;
}

/**
 * (sort key, id) so `ORDER BY key, id LIMIT n` reads n index entries, in either direction; and for a
 * `searchable` field a trigram index, so `contains` and `starts_with` (ILIKE patterns) read the matching
 * rows instead of every row of a large table. A trigram index is asked for, not given to every text
 * field: it holds a key per three-letter run of each value (about 34 for the bench's row), which every
 * write pays. They speed reads up and enforce nothing, so a field added to a table that has rows gets
 * them after its change commits (see `PendingIndexes`).
 */
export function fieldReadIndexes(storageName: string, field: Field): FieldIndex[] {
  const kind = COLUMN_KINDS[field.fieldType];
  const column = ident(field.column);
  const indexes: FieldIndex[] = [];
  if (kind.indexExpression) {
    const name = fieldIndexName(field.id);
    indexes.push({ fieldId: field.id, name, definition: `IF NOT EXISTS ${ident(name)} ON ${qualified(storageName)} ((${kind.indexExpression(column)}), id)` });
  }
  if (field.options.searchable) indexes.push(searchIndex(storageName, field));
  return indexes;
}

/** The trigram index of a `searchable` field. */
export function searchIndex(storageName: string, field: Field): FieldIndex {
  const name = fieldSearchIndexName(field.id);
  return { fieldId: field.id, name, definition: `IF NOT EXISTS ${ident(name)} ON ${qualified(storageName)} USING gin (${ident(field.column)} tables.gin_trgm_ops)` };
}

/** Drops the trigram index of a field that stops being `searchable`. */
export async function dropSearchIndex(db: Sql, field: Field): Promise<void> {
  await db.query(`DROP INDEX IF EXISTS tables.${ident(fieldSearchIndexName(field.id))}`);
}

/** Every index of a field, built now in the caller's transaction. */
function fieldIndexesSql(storageName: string, field: Field): string[] {
  const statements = fieldReadIndexes(storageName, field).map((index) => `CREATE INDEX ${index.definition}`);
  if (field.options.is_unique) statements.push(uniqueIndexSql(storageName, field));
  return statements;
}

/**
 * What an `is_unique` field's index holds of `value` (a column, or a parameter of the column's type).
 * Text values may exceed a btree entry's size, so text kinds are held unique through their md5 (equal
 * bytes, equal digest); numbers directly (numeric equality: 1 and 1.0 are the same value). An upsert
 * names the same expression as its ON CONFLICT target.
 */
export function uniqueKeyExpression(field: Field, value: string): string {
  return field.fieldType === 'number' ? value : `md5(${value})`;
}

function uniqueIndexSql(storageName: string, field: Field): string {
  return `CREATE UNIQUE INDEX ${ident(fieldUniqueIndexName(field.id))} ON ${qualified(storageName)} ((${uniqueKeyExpression(field, ident(field.column))}))`;
}

/** Adds or drops the unique index of an `is_unique` field; building it over duplicates fails with 23505. */
export async function setUniqueIndex(db: Sql, storageName: string, field: Field, unique: boolean): Promise<void> {
  await db.query(unique ? uniqueIndexSql(storageName, field) : `DROP INDEX IF EXISTS tables.${ident(fieldUniqueIndexName(field.id))}`);
}

/** The columns every rows table has before its fields' columns. */
export const ROW_COLUMNS = ['id', 'created_at', 'updated_at'] as const;

export function rowsTableColumns(fields: readonly Field[]): string {
  const columns = ['id uuid NOT NULL', 'created_at timestamptz NOT NULL DEFAULT now()', 'updated_at timestamptz NOT NULL DEFAULT now()'];
  return [...columns, ...fields.map(columnDefinition)].join(', ');
}

/** The primary key and every index of a rows table: on creation, and again after a rebuild has copied the rows. */
export async function indexRowsTable(db: Sql, tableId: string, storageName: string, fields: readonly Field[]): Promise<void> {
  await db.query(`ALTER TABLE ${qualified(storageName)} ADD PRIMARY KEY (id)`);
  await db.query(`CREATE INDEX ${ident(tableIndexName(tableId, 'created'))} ON ${qualified(storageName)} (created_at, id)`);
  await db.query(`CREATE INDEX ${ident(tableIndexName(tableId, 'updated'))} ON ${qualified(storageName)} (updated_at, id)`);
  for (const field of fields) {
    for (const sql of fieldIndexesSql(storageName, field)) await db.query(sql);
  }
}

/** Creates a user table's physical rows table; runs inside the transaction that writes its metadata. */
export async function createRowsTable(db: Sql, tableId: string, storageName: string, fields: readonly Field[]): Promise<void> {
  await db.query(`CREATE TABLE ${qualified(storageName)} (${rowsTableColumns(fields)})`);
  await indexRowsTable(db, tableId, storageName, fields);
}

/**
 * Drops and adds columns in one ALTER: nullable columns without a default, so Postgres changes only its
 * catalog and rewrites no row, whatever the table's size. A unique field's index is built now (it is
 * the rule itself); the read indexes of the new fields are answered for the caller to build after commit.
 */
export async function alterRowsTable(db: Sql, storageName: string, removed: readonly Field[], added: readonly Field[]): Promise<FieldIndex[]> {
  const actions = [
    ...removed.map((field) => `DROP COLUMN ${ident(field.column)}`),
    ...added.map((field) => `ADD COLUMN ${columnDefinition(field)}`),
  ];
  if (actions.length === 0) return [];
  await db.query(`ALTER TABLE ${qualified(storageName)} ${actions.join(', ')}`);
  for (const field of added) {
    if (field.options.is_unique) await db.query(uniqueIndexSql(storageName, field));
  }
  return added.flatMap((field) => fieldReadIndexes(storageName, field));
}

export async function dropRowsTable(db: Sql, storageName: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${qualified(storageName)}`);
}
