import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commits into the outbox wake the tables relay at once (NOTIFY on `tables_outbox`), instead of at its next poll.
 * The statements are spelled out as they were written: a migration never follows later code.
 */
export class OutboxWake1764200000000 implements MigrationInterface {
  name = 'OutboxWake1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE OR REPLACE FUNCTION tables.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('tables_outbox', ''); RETURN NULL; END $$`);
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON tables.outbox');
    await db.query('CREATE TRIGGER outbox_notify AFTER INSERT ON tables.outbox FOR EACH STATEMENT EXECUTE FUNCTION tables.outbox_notify()');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON tables.outbox');
    await db.query('DROP FUNCTION IF EXISTS tables.outbox_notify()');
  }
}
