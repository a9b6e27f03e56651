import { dropOutboxWakeSql, outboxWakeSql } from '@platform/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Commits into the outbox wake the gateway's relay of member events at once (NOTIFY), instead of at its next poll. */
export class OutboxWake1764200000000 implements MigrationInterface {
  name = 'OutboxWake1764200000000';

  async up(db: QueryRunner): Promise<void> {
    for (const sql of outboxWakeSql('gateway')) await db.query(sql);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const sql of dropOutboxWakeSql('gateway')) await db.query(sql);
  }
}
