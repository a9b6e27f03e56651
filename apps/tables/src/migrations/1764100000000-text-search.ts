import { MigrationInterface, QueryRunner } from 'typeorm';

/** The field types that were searchable when this migration was written; a migration never follows later code. */
const SEARCHABLE_TYPES = ['text', 'long_text', 'email', 'url', 'phone', 'select'];

/**
 * `contains` and `starts_with` filters are ILIKE patterns: without an index they read every row. pg_trgm
 * (a trusted extension since PostgreSQL 13) gives text-like fields a GIN index that serves them; new
 * fields get one with their column, this gives one to the fields that already exist. It lives in the
 * context's own schema, which the service's role owns. Index names and statements are spelled out here,
 * as they were, so that later changes to the service's DDL code cannot change what this migration did.
 */
export class TextSearch1764100000000 implements MigrationInterface {
  name = 'TextSearch1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA tables');
    // Every name comes from the database's own server-generated identifiers; format() quotes them once more.
    const statements: { sql: string }[] = await db.query(
      `SELECT format('CREATE INDEX IF NOT EXISTS %I ON tables.%I USING gin (%I tables.gin_trgm_ops)',
                     'sx_' || replace(f.id::text, '-', ''), t.storage_name, f.column_name) AS sql
         FROM tables.fields f JOIN tables.user_tables t ON t.id = f.table_id
        WHERE f.field_type = ANY($1)`,
      [SEARCHABLE_TYPES],
    );
    for (const { sql } of statements) await db.query(sql);
  }

  async down(db: QueryRunner): Promise<void> {
    const indexes: { indexname: string }[] = await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'tables' AND indexname LIKE 'sx\\_%'`);
    for (const { indexname } of indexes) await db.query(`DROP INDEX tables."${indexname}"`);
  }
}
