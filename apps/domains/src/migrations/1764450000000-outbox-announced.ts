import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops the outbox wake trigger: such commits serialized on Postgres's one notification lock, so the
 * writers announce their commits over NATS instead. Spelled out as written: a migration never follows later code.
 */
export class OutboxAnnounced1764450000000 implements MigrationInterface {
  name = 'OutboxAnnounced1764450000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON domains.outbox');
    await db.query('DROP FUNCTION IF EXISTS domains.outbox_notify()');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE OR REPLACE FUNCTION domains.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('domains_outbox', ''); RETURN NULL; END $$`);
    await db.query('DROP TRIGGER IF EXISTS outbox_notify ON domains.outbox');
    await db.query('CREATE TRIGGER outbox_notify AFTER INSERT ON domains.outbox FOR EACH STATEMENT EXECUTE FUNCTION domains.outbox_notify()');
  }
}
