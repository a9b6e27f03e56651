import type { Field } from '../fields/field';
import { COLUMN_KINDS } from './column-types';
import { fieldIndexName, ident, qualified, tableIndexName } from './identifiers';
import type { Queryable } from './tables-db';

function columnDefinition(field: Field): string {
  return `${ident(field.column)} ${COLUMN_KINDS[field.fieldType].sqlType}`;
}

/** (sort key, id) so `ORDER BY key, id LIMIT n` reads n index entries, in either direction. */
function fieldIndexSql(storageName: string, field: Field): string | undefined {
  const expression = COLUMN_KINDS[field.fieldType].indexExpression;
  if (!expression) return undefined;
  return `CREATE INDEX ${ident(fieldIndexName(field.id))} ON ${qualified(storageName)} ((${expression(ident(field.column))}), id)`;
}

/** Creates a user table's physical rows table; runs inside the transaction that writes its metadata. */
export async function createRowsTable(db: Queryable, tableId: string, storageName: string, fields: readonly Field[]): Promise<void> {
  const columns = ['id uuid PRIMARY KEY', 'created_at timestamptz NOT NULL DEFAULT now()', 'updated_at timestamptz NOT NULL DEFAULT now()'];
  columns.push(...fields.map(columnDefinition));
  await db.query(`CREATE TABLE ${qualified(storageName)} (${columns.join(', ')})`);
  await db.query(`CREATE INDEX ${ident(tableIndexName(tableId, 'created'))} ON ${qualified(storageName)} (created_at, id)`);
  await db.query(`CREATE INDEX ${ident(tableIndexName(tableId, 'updated'))} ON ${qualified(storageName)} (updated_at, id)`);
  for (const field of fields) {
    const sql = fieldIndexSql(storageName, field);
    if (sql) await db.query(sql);
  }
}

/** Drops and adds columns in one ALTER (one table rewrite lock), then indexes the new ones. */
export async function alterRowsTable(db: Queryable, storageName: string, removed: readonly Field[], added: readonly Field[]): Promise<void> {
  const actions = [
    ...removed.map((field) => `DROP COLUMN ${ident(field.column)}`),
    ...added.map((field) => `ADD COLUMN ${columnDefinition(field)}`),
  ];
  if (actions.length === 0) return;
  await db.query(`ALTER TABLE ${qualified(storageName)} ${actions.join(', ')}`);
  for (const field of added) {
    const sql = fieldIndexSql(storageName, field);
    if (sql) await db.query(sql);
  }
}

export async function dropRowsTable(db: Queryable, storageName: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${qualified(storageName)}`);
}
