import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files of attachment fields live in object storage. `uploads` holds each presigned upload until its file
 * leaves the data; `object_deletions` is the queue of objects to remove from storage, written in the same
 * transaction as the change that dropped them and drained in the background until storage confirms.
 */
export class AttachmentFiles1764000019000 implements MigrationInterface {
  name = 'AttachmentFiles1764000019000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE tables.uploads (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      filename text NOT NULL,
      mime_type text NOT NULL,
      size bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attached_at timestamptz
    )`);
    await db.query(`CREATE INDEX uploads_table_idx ON tables.uploads (table_id)`);
    // The sweep of uploads never attached walks only those.
    await db.query(`CREATE INDEX uploads_unattached_idx ON tables.uploads (created_at) WHERE attached_at IS NULL`);
    await db.query(`CREATE TABLE tables.object_deletions (
      id bigserial PRIMARY KEY,
      object_key text NOT NULL,
      is_prefix boolean NOT NULL DEFAULT false,
      due_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX object_deletions_due_idx ON tables.object_deletions (due_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE tables.object_deletions, tables.uploads');
  }
}
