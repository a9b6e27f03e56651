import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a webhook removes its one row at once; its series and delivery records go afterwards, in
 * batches, from `webhook_purges`. The foreign keys that cascaded the delete are dropped: the cascade held
 * the webhook's row while it deleted a whole backlog, and deadlocked with workers that locked a series
 * and then the webhook (through the key check of a delivery record). Readers already match series and
 * deliveries to webhooks that exist.
 */
export class WebhookPurges1764500000000 implements MigrationInterface {
  name = 'WebhookPurges1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.deliveries DROP CONSTRAINT deliveries_webhook_id_fkey`);
    await db.query(`ALTER TABLE webhooks.delivery_series DROP CONSTRAINT delivery_series_webhook_id_fkey`);
    await db.query(`CREATE TABLE webhooks.webhook_purges (
      webhook_id uuid PRIMARY KEY,
      deleted_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.webhook_purges`);
    await db.query(`DELETE FROM webhooks.delivery_series s WHERE NOT EXISTS (SELECT 1 FROM webhooks.webhooks w WHERE w.id = s.webhook_id)`);
    await db.query(`DELETE FROM webhooks.deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhooks.webhooks w WHERE w.id = d.webhook_id)`);
    await db.query(`ALTER TABLE webhooks.delivery_series ADD FOREIGN KEY (webhook_id) REFERENCES webhooks.webhooks(id) ON DELETE CASCADE`);
    await db.query(`ALTER TABLE webhooks.deliveries ADD FOREIGN KEY (webhook_id) REFERENCES webhooks.webhooks(id) ON DELETE CASCADE`);
  }
}
