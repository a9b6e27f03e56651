import { Injectable } from '@nestjs/common';
import { Database } from '@platform/persistence';
import { DELIVERIES_TABLE, DELIVERY_SERIES_TABLE, RECOVERIES_TABLE, WEBHOOK_PURGES_TABLE } from '../webhooks-schema';

/** What one batch of a deleted webhook's purge took away. */
export interface PurgeBatch {
  webhookId: string;
  /** Series that still owed attempts: their ids are their jobs' ids in Redis. */
  openSeriesIds: string[];
  rows: number;
}

/** The records of deleted webhooks, removed a batch at a time so that no statement holds many locks. */
@Injectable()
export class WebhookPurgesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Deletes up to `batch` series and `batch` delivery records of one deleted webhook, which this replica
   * holds locked meanwhile (others skip it). When nothing is left and the delete is older than `settleMs`
   * (an attempt in flight at the delete may still record itself), the webhook leaves the purge list.
   */
  async purgeBatch(batch: number, settleMs: number): Promise<PurgeBatch | undefined> {
    return this.db.transaction(async (tx) => {
      const {
        rows: [purge],
      } = await tx.query<{ webhook_id: string; settled: boolean }>(
        `SELECT webhook_id, deleted_at < now() - make_interval(secs => $1::float8 / 1000) AS settled
         FROM ${WEBHOOK_PURGES_TABLE} ORDER BY deleted_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [settleMs],
      );
      if (!purge) return undefined;
      const { rows: series } = await tx.query<{ id: string; open: boolean }>(
        `DELETE FROM ${DELIVERY_SERIES_TABLE} WHERE id IN (SELECT id FROM ${DELIVERY_SERIES_TABLE} WHERE webhook_id = $1 LIMIT $2)
         RETURNING id, finished_at IS NULL AS open`,
        [purge.webhook_id, batch],
      );
      const { rowCount: deliveries } = await tx.query(
        `DELETE FROM ${DELIVERIES_TABLE} WHERE id IN (SELECT id FROM ${DELIVERIES_TABLE} WHERE webhook_id = $1 LIMIT $2)`,
        [purge.webhook_id, batch],
      );
      await tx.query(`DELETE FROM ${RECOVERIES_TABLE} WHERE webhook_id = $1`, [purge.webhook_id]);
      const rows = series.length + (deliveries ?? 0);
      if (rows === 0 && purge.settled) await tx.query(`DELETE FROM ${WEBHOOK_PURGES_TABLE} WHERE webhook_id = $1`, [purge.webhook_id]);
      return { webhookId: purge.webhook_id, openSeriesIds: series.filter((s) => s.open).map((s) => s.id), rows };
    });
  }
}
