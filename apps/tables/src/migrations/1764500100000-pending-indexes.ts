import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes that fields added to tables with rows still need. The change that adds a field writes them here
 * in its transaction and answers without building them; `PendingIndexes` builds each CONCURRENTLY
 * afterwards (writes go on) and removes its entry, and finishes one that a crash left half-built.
 */
export class PendingIndexes1764500100000 implements MigrationInterface {
  name = 'PendingIndexes1764500100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE tables.pending_indexes (
      index_name text PRIMARY KEY,
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      field_id uuid NOT NULL,
      definition text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX pending_indexes_table_idx ON tables.pending_indexes (table_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE tables.pending_indexes`);
  }
}
