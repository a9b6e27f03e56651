import { dropOutboxWakeSql, outboxWakeSql } from '@platform/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Commits into the outbox wake the tables relay at once (NOTIFY), instead of at its next poll. */
export class OutboxWake1764200000000 implements MigrationInterface {
  name = 'OutboxWake1764200000000';

  async up(db: QueryRunner): Promise<void> {
    for (const sql of outboxWakeSql('tables')) await db.query(sql);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const sql of dropOutboxWakeSql('tables')) await db.query(sql);
  }
}
