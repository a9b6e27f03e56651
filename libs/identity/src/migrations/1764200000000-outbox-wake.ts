import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commits into the outbox wake the gateway's relay of member events at once (NOTIFY on `gateway_outbox`), instead of at its next poll.
 * The statements are spelled out as they were written: a migration never follows later code.
 */
export class OutboxWake1764200000000 implements MigrationInterface {
  name = 'OutboxWake1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE OR REPLACE FUNCTION gateway.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('gateway_outbox', ''); RETURN NULL; END $$`);
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON gateway.outbox');
    await db.query('CREATE TRIGGER outbox_notify AFTER INSERT ON gateway.outbox FOR EACH STATEMENT EXECUTE FUNCTION gateway.outbox_notify()');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON gateway.outbox');
    await db.query('DROP FUNCTION IF EXISTS gateway.outbox_notify()');
  }
}
