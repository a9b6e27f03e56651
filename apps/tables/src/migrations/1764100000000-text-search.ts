import { MigrationInterface, QueryRunner } from 'typeorm';
import { COLUMN_KINDS } from '../storage/column-types';
import { searchIndexSql } from '../storage/rows-ddl';

/**
 * `contains` and `starts_with` filters are ILIKE patterns: without an index they read every row. pg_trgm
 * (a trusted extension since PostgreSQL 13) gives text-like fields a GIN index that serves them; new
 * fields get one with their column, this gives one to the fields that already exist. It lives in the
 * context's own schema, which the service's role owns.
 */
export class TextSearch1764100000000 implements MigrationInterface {
  name = 'TextSearch1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA tables');
    const searchable = Object.entries(COLUMN_KINDS)
      .filter(([, kind]) => kind.searchable)
      .map(([type]) => type);
    const fields: { storage_name: string; id: string; column_name: string }[] = await db.query(
      `SELECT t.storage_name, f.id, f.column_name FROM tables.fields f JOIN tables.user_tables t ON t.id = f.table_id WHERE f.field_type = ANY($1)`,
      [searchable],
    );
    for (const field of fields) await db.query(searchIndexSql(field.storage_name, field.id, field.column_name));
  }

  async down(db: QueryRunner): Promise<void> {
    const indexes: { indexname: string }[] = await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'tables' AND indexname LIKE 'sx\\_%'`);
    for (const { indexname } of indexes) await db.query(`DROP INDEX tables."${indexname}"`);
  }
}
