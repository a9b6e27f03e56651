import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A recovery runs in the background and is followed by its id. One at a time per webhook (the partial
 * unique index); a replica that dies while running one leaves its lease to end, and another takes it on.
 * An event already queued for a webhook by a recover or redeliver whose series has not finished gets no
 * second one: the explicit series are unique per webhook and event while open (older doubles, which
 * that allowed before, are finished here; the newest of each stays owed).
 */
export class Recoveries1764500100000 implements MigrationInterface {
  name = 'Recoveries1764500100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE webhooks.recoveries (
      id uuid PRIMARY KEY,
      webhook_id uuid NOT NULL,
      organization_id uuid NOT NULL,
      since timestamptz NOT NULL,
      until timestamptz NOT NULL,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'finished', 'failed')),
      queued integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
    await db.query(`CREATE UNIQUE INDEX recoveries_one_open_idx ON webhooks.recoveries (webhook_id) WHERE status IN ('queued', 'running')`);
    await db.query(`UPDATE webhooks.delivery_series s SET finished_at = now()
      WHERE s.trigger <> 'event' AND s.finished_at IS NULL AND EXISTS (
        SELECT 1 FROM webhooks.delivery_series t
        WHERE t.webhook_id = s.webhook_id AND t.event_id = s.event_id AND t.trigger <> 'event' AND t.finished_at IS NULL
          AND (t.created_at, t.id) > (s.created_at, s.id))`);
    await db.query(`CREATE UNIQUE INDEX delivery_series_explicit_open_idx ON webhooks.delivery_series (webhook_id, event_id)
      WHERE trigger <> 'event' AND finished_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhooks.delivery_series_explicit_open_idx`);
    await db.query(`DROP TABLE webhooks.recoveries`);
  }
}
