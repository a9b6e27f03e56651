import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Metadata of user tables. Each user table's rows live in their own physical table
 * (`tables.rows_<id>`), created and altered by the service in the same transaction as the metadata.
 */
export class Tables1763710000000 implements MigrationInterface {
  name = 'Tables1763710000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE tables.user_tables (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      name text NOT NULL,
      slug text NOT NULL,
      description text,
      icon text,
      storage_name text NOT NULL UNIQUE,
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, slug)
    )`);
    await db.query(`CREATE INDEX user_tables_org_created_idx ON tables.user_tables (organization_id, created_at, id)`);
    await db.query(`CREATE TABLE tables.fields (
      id uuid PRIMARY KEY,
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      name text NOT NULL,
      slug text NOT NULL,
      field_type text NOT NULL,
      is_required boolean NOT NULL DEFAULT false,
      options jsonb NOT NULL DEFAULT '{}',
      column_name text NOT NULL,
      position integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (table_id, slug)
    )`);
    // Row counts are spread over slots so concurrent creates do not queue on one hot row; the count is their sum.
    await db.query(`CREATE TABLE tables.row_counts (
      table_id uuid NOT NULL REFERENCES tables.user_tables(id) ON DELETE CASCADE,
      slot smallint NOT NULL,
      n bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (table_id, slot)
    )`);
    await db.query(`CREATE TABLE tables.outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE tables.outbox, tables.row_counts, tables.fields, tables.user_tables');
  }
}
