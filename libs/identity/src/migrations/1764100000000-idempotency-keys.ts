import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Answers to POSTs sent with an Idempotency-Key, per organization, for 24 hours. A row without a
 * `status` is a request still running; `locked_until` bounds it if its gateway died meanwhile.
 */
export class IdempotencyKeys1764100000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE gateway.idempotency_keys (
      organization_id uuid NOT NULL,
      key text NOT NULL,
      request_hash bytea NOT NULL,
      status smallint,
      response text,
      locked_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, key)
    )`);
    await db.query('CREATE INDEX idempotency_keys_created_idx ON gateway.idempotency_keys (created_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE gateway.idempotency_keys');
  }
}
