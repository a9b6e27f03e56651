import { MigrationInterface, QueryRunner } from 'typeorm';

/** Upload tickets are counted per organization over the last minute (their rate limit). */
export class UploadTickets1764500000000 implements MigrationInterface {
  name = 'UploadTickets1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX uploads_organization_created_idx ON tables.uploads (organization_id, created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX tables.uploads_organization_created_idx`);
  }
}
