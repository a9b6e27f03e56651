import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports: the background jobs that write a file's rows into a table. An upload says what it is for, so an
 * import's file can never be attached to a row (nor an attachment imported). At most one import of a table
 * is queued or running at a time: the partial unique index decides, so two requests cannot both pass.
 * `lease_until` is how long the process that claimed an import holds it; it renews it every second with the
 * progress, so a job whose process died is claimed again once the lease has passed.
 */
export class Imports1764700000000 implements MigrationInterface {
  name = 'Imports1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE tables.uploads ADD COLUMN purpose text NOT NULL DEFAULT 'attachment'`);
    await db.query(`CREATE TABLE tables.imports (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      upload_id uuid NOT NULL,
      status text NOT NULL DEFAULT 'queued',
      format text NOT NULL,
      mode text NOT NULL,
      upsert_on text,
      on_error text NOT NULL,
      columns jsonb,
      rows_done bigint NOT NULL DEFAULT 0,
      rows_created bigint NOT NULL DEFAULT 0,
      rows_updated bigint NOT NULL DEFAULT 0,
      rows_failed bigint NOT NULL DEFAULT 0,
      errors jsonb NOT NULL DEFAULT '[]',
      attempts integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
    await db.query(`CREATE INDEX imports_table_idx ON tables.imports (table_id, created_at DESC, id DESC)`);
    await db.query(`CREATE UNIQUE INDEX imports_one_active_idx ON tables.imports (table_id) WHERE status IN ('queued', 'running')`);
    // The job process looks only at unfinished imports.
    await db.query(`CREATE INDEX imports_unfinished_idx ON tables.imports (created_at) WHERE status IN ('queued', 'running')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE tables.imports`);
    await db.query(`ALTER TABLE tables.uploads DROP COLUMN purpose`);
  }
}
