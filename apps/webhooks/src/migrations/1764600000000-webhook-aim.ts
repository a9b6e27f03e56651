import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks aimed at rows: a rows filter with the types of the fields it named when it was checked (so the
 * fan-out evaluates it without asking the tables context), watched fields, the sentence that says the
 * table lost one of them, and a delivery rate. Attempts keep the start of the receiver's answer.
 */
export class WebhookAim1764600000000 implements MigrationInterface {
  name = 'WebhookAim1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.webhooks
      ADD COLUMN filter jsonb,
      ADD COLUMN filter_fields jsonb,
      ADD COLUMN watch_fields text[],
      ADD COLUMN filter_error text,
      ADD COLUMN rate_limit integer`);
    await db.query(`ALTER TABLE webhooks.deliveries ADD COLUMN response_body text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.deliveries DROP COLUMN response_body`);
    await db.query(`ALTER TABLE webhooks.webhooks DROP COLUMN filter, DROP COLUMN filter_fields, DROP COLUMN watch_fields, DROP COLUMN filter_error, DROP COLUMN rate_limit`);
  }
}
