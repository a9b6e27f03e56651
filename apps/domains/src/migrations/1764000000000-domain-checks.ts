import { MigrationInterface, QueryRunner } from 'typeorm';

/** The background re-check's schedule, the latest check's issues, and the context's own event outbox. */
export class DomainChecks1764000000000 implements MigrationInterface {
  name = 'DomainChecks1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE domains.domains
      ADD COLUMN issues jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN next_check_at timestamptz`);
    // Domains that existed before the re-check get their first one at once; failed domains wait for a client.
    await db.query(`UPDATE domains.domains SET next_check_at = now() WHERE status <> 'failed'`);
    await db.query('CREATE INDEX domains_next_check_idx ON domains.domains (next_check_at) WHERE next_check_at IS NOT NULL');
    await db.query(`CREATE TABLE domains.outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE domains.outbox');
    await db.query('DROP INDEX domains.domains_next_check_idx');
    await db.query('ALTER TABLE domains.domains DROP COLUMN issues, DROP COLUMN next_check_at');
  }
}
