import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox payloads as text compressed with lz4: Postgres parsed every payload as json on the way in, and
 * compressed a batch's (tens of KiB) with pglz, about 1 ms of its CPU per 100-row batch; our own JSON needs
 * neither check. lz4 where the server has it. Spelled out as written: a migration never follows later code.
 */
export class OutboxText1765000000000 implements MigrationInterface {
  name = 'OutboxText1765000000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of ['domains.outbox', 'domains.outbox_parked']) {
      await db.query(`ALTER TABLE ${table} ALTER COLUMN payload TYPE text USING payload::text`);
      await db.query(`DO $$ BEGIN ALTER TABLE ${table} ALTER COLUMN payload SET COMPRESSION lz4; EXCEPTION WHEN feature_not_supported THEN NULL; END $$`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['domains.outbox', 'domains.outbox_parked']) {
      await db.query(`ALTER TABLE ${table} ALTER COLUMN payload SET COMPRESSION default`);
      await db.query(`ALTER TABLE ${table} ALTER COLUMN payload TYPE json USING payload::json`);
    }
  }
}
