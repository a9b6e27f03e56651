import { MigrationInterface, QueryRunner } from 'typeorm';

/** Where the relay sets aside an event it cannot publish, so that no event holds back another. Spelled out as written. */
export class OutboxParked1764600000000 implements MigrationInterface {
  name = 'OutboxParked1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE IF NOT EXISTS domains.outbox_parked (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      payload json NOT NULL,
      error text NOT NULL,
      parked_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE IF EXISTS domains.outbox_parked');
  }
}
