import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exports: the background jobs that write a table's rows to a file in object storage. `expires_at` is
 * when the file is removed (its deletion is queued with that due time when the export completes); an
 * export read after it shows `expired`.
 */
export class Exports1764900000000 implements MigrationInterface {
  name = 'Exports1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE tables.exports (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'queued',
      format text NOT NULL,
      filter jsonb,
      sort text,
      sort_order text,
      fields text[],
      rows_done bigint NOT NULL DEFAULT 0,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      expires_at timestamptz
    )`);
    await db.query(`CREATE INDEX exports_table_idx ON tables.exports (table_id, created_at DESC, id DESC)`);
    // The job process looks only at unfinished exports.
    await db.query(`CREATE INDEX exports_unfinished_idx ON tables.exports (created_at) WHERE status IN ('queued', 'running')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE tables.exports`);
  }
}
