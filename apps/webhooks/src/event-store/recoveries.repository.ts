import { Injectable } from '@nestjs/common';
import { conflictOnUniqueViolation, Database } from '@platform/persistence';
import type { RecoveryStatus } from '@contracts';
import { RECOVERIES_TABLE } from '../webhooks-schema';

export interface Recovery {
  id: string;
  webhook_id: string;
  organization_id: string;
  since: Date;
  until: Date;
  status: RecoveryStatus;
  queued: number;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = 'id, webhook_id, organization_id, since, until, status, queued, started_at, finished_at';

/** Recoveries of webhooks: queued by a request, run in the background under a lease. */
@Injectable()
export class RecoveriesRepository {
  constructor(private readonly db: Database) {}

  /** A queued recovery; a CONFLICT when the webhook already has one queued or running. */
  async insert(recovery: Pick<Recovery, 'id' | 'webhook_id' | 'organization_id' | 'since' | 'until'>): Promise<Recovery> {
    const { rows } = await conflictOnUniqueViolation(
      () =>
        this.db.query<Recovery>(
          `INSERT INTO ${RECOVERIES_TABLE} (id, webhook_id, organization_id, since, until) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
          [recovery.id, recovery.webhook_id, recovery.organization_id, recovery.since, recovery.until],
        ),
      'A recovery of this webhook is already running; follow it, and start another once it has finished',
      'recoveries_one_open_idx',
    );
    return rows[0];
  }

  async findOwned(organizationId: string, webhookId: string, id: string): Promise<Recovery | undefined> {
    const { rows } = await this.db.query<Recovery>(
      `SELECT ${COLUMNS} FROM ${RECOVERIES_TABLE} WHERE id = $1 AND webhook_id = $2 AND organization_id = $3`,
      [id, webhookId, organizationId],
    );
    return rows[0];
  }

  /**
   * Takes one recovery that is queued, or running under a lease that ended (its replica died), and holds
   * it for `leaseMs`; answers undefined when there is none.
   */
  async claim(leaseMs: number): Promise<Recovery | undefined> {
    const { rows } = await this.db.query<Recovery>(
      `UPDATE ${RECOVERIES_TABLE} SET status = 'running', started_at = COALESCE(started_at, now()), lease_until = now() + make_interval(secs => $1::float8 / 1000)
       WHERE id = (
         SELECT id FROM ${RECOVERIES_TABLE} WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [leaseMs],
    );
    return rows[0];
  }

  async renew(id: string, leaseMs: number): Promise<void> {
    await this.db.query(`UPDATE ${RECOVERIES_TABLE} SET lease_until = now() + make_interval(secs => $2::float8 / 1000) WHERE id = $1`, [id, leaseMs]);
  }

  async finish(id: string, status: 'finished' | 'failed'): Promise<void> {
    await this.db.query(`UPDATE ${RECOVERIES_TABLE} SET status = $2, finished_at = now(), lease_until = NULL WHERE id = $1`, [id, status]);
  }
}
