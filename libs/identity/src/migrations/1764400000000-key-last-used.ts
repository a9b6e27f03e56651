import { MigrationInterface, QueryRunner } from 'typeorm';

/** When a key was last seen by a gateway, so an operator listing keys can tell a live one from a forgotten one. */
export class KeyLastUsed1764400000000 implements MigrationInterface {
  name = 'KeyLastUsed1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys DROP COLUMN last_used_at`);
  }
}
