import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks and one delivery record per attempt. `active` is the customer's switch; `failed_at` marks a
 * webhook whose delivery exhausted its retries, until its next 2xx.
 */
export class Webhooks1763720000000 implements MigrationInterface {
  name = 'Webhooks1763720000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE webhooks.webhooks (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      name text NOT NULL,
      url text NOT NULL,
      events text[] NOT NULL,
      active boolean NOT NULL DEFAULT true,
      failed_at timestamptz,
      secret_ciphertext bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX webhooks_org_created_idx ON webhooks.webhooks (organization_id, created_at, id)`);
    await db.query(`CREATE TABLE webhooks.deliveries (
      id uuid PRIMARY KEY,
      webhook_id uuid NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      attempt smallint NOT NULL,
      status_code smallint NOT NULL,
      duration_ms integer NOT NULL,
      success boolean NOT NULL,
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX deliveries_webhook_newest_idx ON webhooks.deliveries (webhook_id, created_at DESC, attempt DESC, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.deliveries`);
    await db.query(`DROP TABLE webhooks.webhooks`);
  }
}
