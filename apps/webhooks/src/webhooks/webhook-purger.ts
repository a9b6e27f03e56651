import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { counter, PeriodicJob } from '@platform/service';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { WebhooksConfig } from '../webhooks.config';
import { WebhookPurgesRepository } from './webhook-purges.repository';

const PURGE_INTERVAL_MS = 2_000;
/** Small enough that each transaction holds its locks only briefly. */
const PURGE_BATCH = 2_000;

const purged = counter('webhook_purged_rows_total', 'Series and delivery records of deleted webhooks removed in the background');

/**
 * Takes away what a deleted webhook left: its queued jobs in Redis, its series and its delivery records.
 * `DELETE /webhooks/{id}` only removes the webhook's row, so it answers at once whatever the backlog; the
 * worker sends nothing for a webhook that no longer exists, and this clears the rest behind it.
 */
@Injectable()
export class WebhookPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookPurger');
  private readonly job = new PeriodicJob(() => this.purge(), PURGE_INTERVAL_MS, { runAtStart: true, name: 'webhook-purges', owner: 'webhooks' });

  constructor(
    private readonly purges: WebhookPurgesRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: WebhooksConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async purge(): Promise<void> {
    try {
      while (!this.job.stopping) {
        // An attempt that was in flight at the delete may record itself up to its deadline after it.
        const batch = await this.purges.purgeBatch(PURGE_BATCH, 2 * this.config.WEBHOOK_TIMEOUT_MS);
        if (!batch) return;
        await this.queue.removeJobs(batch.openSeriesIds);
        purged.inc(batch.rows);
        if (batch.rows === 0) return;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not purge a deleted webhook; the next run tries again');
    }
  }
}
