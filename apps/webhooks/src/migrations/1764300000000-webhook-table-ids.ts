import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook may be narrowed to some tables of its organization: then it gets `row.*` and `table.*` events
 * of those tables only. Null means every table. Table ids only: the tables live in another context.
 */
export class WebhookTableIds1764300000000 implements MigrationInterface {
  name = 'WebhookTableIds1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.webhooks ADD COLUMN table_ids uuid[]`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.webhooks DROP COLUMN table_ids`);
  }
}
