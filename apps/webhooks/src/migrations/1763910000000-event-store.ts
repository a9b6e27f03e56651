import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store: every event that reaches the dispatcher with the exact bytes that are signed, and one
 * delivery series per (event, webhook, request to deliver). Postgres is the truth of what is owed to whom;
 * the Redis queue only holds the work in progress, so a series with no final attempt and no job is queued
 * again. `due_at` is when the series' next attempt is owed; the reconciler reads only overdue series.
 */
export class EventStore1763910000000 implements MigrationInterface {
  name = 'EventStore1763910000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE webhooks.events (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      event_type text NOT NULL,
      table_id uuid,
      body text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX events_org_received_idx ON webhooks.events (organization_id, received_at, id)`);
    await db.query(`CREATE INDEX events_received_idx ON webhooks.events (received_at)`);
    await db.query(`CREATE TABLE webhooks.delivery_series (
      id uuid PRIMARY KEY,
      webhook_id uuid NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      event_id uuid NOT NULL REFERENCES webhooks.events(id) ON DELETE CASCADE,
      trigger text NOT NULL CHECK (trigger IN ('event', 'redeliver', 'recover')),
      attempts smallint NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    // The fan-out's series: one per event and webhook, however often JetStream hands the event over.
    await db.query(`CREATE UNIQUE INDEX delivery_series_fan_out_idx ON webhooks.delivery_series (event_id, webhook_id) WHERE trigger = 'event'`);
    await db.query(`CREATE INDEX delivery_series_owed_idx ON webhooks.delivery_series (due_at, id) WHERE finished_at IS NULL`);
    await db.query(`CREATE INDEX delivery_series_webhook_idx ON webhooks.delivery_series (webhook_id)`);
    await db.query(`ALTER TABLE webhooks.deliveries ADD COLUMN series_id uuid, ADD COLUMN next_retry_at timestamptz`);
    await db.query(`CREATE INDEX deliveries_created_idx ON webhooks.deliveries (created_at)`);
    await db.query(`CREATE INDEX deliveries_delivered_idx ON webhooks.deliveries (webhook_id, event_id) WHERE success`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhooks.deliveries_delivered_idx`);
    await db.query(`DROP INDEX webhooks.deliveries_created_idx`);
    await db.query(`ALTER TABLE webhooks.deliveries DROP COLUMN series_id, DROP COLUMN next_retry_at`);
    await db.query(`DROP TABLE webhooks.delivery_series`);
    await db.query(`DROP TABLE webhooks.events`);
  }
}
