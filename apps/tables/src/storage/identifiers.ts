import { TABLES_SCHEMA } from '../tables-schema';

/**
 * Names used in DDL and SQL. They are built only from server-generated UUIDs, never from user text, and
 * checked once more here so a bug elsewhere cannot smuggle anything else into a statement.
 */
const SAFE_IDENTIFIER = /^[a-z][a-z0-9_]{0,62}$/;

export function ident(name: string): string {
  if (!SAFE_IDENTIFIER.test(name)) throw new Error(`Unsafe identifier: ${name}`);
  return `"${name}"`;
}

function hex(uuid: string): string {
  const compact = uuid.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(compact)) throw new Error(`Not a UUID: ${uuid}`);
  return compact;
}

/** `tables.rows_<table id hex>`: the physical table holding one user table's rows. */
export function rowsTableName(tableId: string): string {
  return `rows_${hex(tableId)}`;
}

/** Where a rows table is rebuilt before it takes the name of the table it replaces. */
export function rebuildTableName(tableId: string): string {
  return `rebuild_${hex(tableId)}`;
}

export function fieldColumnName(fieldId: string): string {
  return `f_${hex(fieldId)}`;
}

/** Index names live in the schema's namespace, so they carry the globally unique id they index. */
export function fieldIndexName(fieldId: string): string {
  return `ix_${hex(fieldId)}`;
}

/** The trigram index that serves `contains` and `starts_with` on a text-like field. */
export function fieldSearchIndexName(fieldId: string): string {
  return `sx_${hex(fieldId)}`;
}

/** The unique index that holds an `is_unique` field's values distinct. */
export function fieldUniqueIndexName(fieldId: string): string {
  return `uq_${hex(fieldId)}`;
}

export function tableIndexName(tableId: string, purpose: 'created' | 'updated'): string {
  return `ix_${purpose}_${hex(tableId)}`;
}

export function qualified(storageName: string): string {
  return `${TABLES_SCHEMA}.${ident(storageName)}`;
}
