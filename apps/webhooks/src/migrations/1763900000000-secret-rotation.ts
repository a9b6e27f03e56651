import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The secret a rotation replaced keeps signing until `previous_secret_expires_at`, so receivers can switch
 * without losing a delivery. Sealed like the current one, with the same webhook id as associated data.
 */
export class SecretRotation1763900000000 implements MigrationInterface {
  name = 'SecretRotation1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.webhooks ADD COLUMN previous_secret_ciphertext bytea, ADD COLUMN previous_secret_expires_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.webhooks DROP COLUMN previous_secret_ciphertext, DROP COLUMN previous_secret_expires_at`);
  }
}
