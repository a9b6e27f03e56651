import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { counter, PeriodicJob } from '@platform/service';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { WebhooksApiConfig } from '../webhooks.config';
import { EventStoreRepository, SeriesCursor } from './event-store.repository';
import { jobOfSeries } from './series-jobs';

const PAGE = 500;

const requeued = counter('webhook_series_requeued_total', 'Delivery series the reconciler queued again because Redis held no job for them');
const runs = counter('webhook_reconcile_runs_total', 'Reconciler runs by outcome: done, failed', ['outcome']);

/**
 * Postgres is the truth of what is owed; Redis holds the work in progress. Every WEBHOOK_RECONCILE_INTERVAL_MS
 * this looks at the series that owe an attempt that is overdue by more than that interval, and queues again
 * each one Redis holds no job for (lost with an emptied Redis, or never added when Redis refused it). The
 * series id is the job id, so replicas reconciling at once, or a job added meanwhile, make no second job.
 * A job leaves Redis when it ends, after its series is finished in Postgres; so a series is queued again
 * only when Postgres, read after Redis, still says it is owed.
 */
@Injectable()
export class SeriesReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SeriesReconciler');
  private readonly job: PeriodicJob;

  constructor(
    private readonly store: EventStoreRepository,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly config: WebhooksApiConfig,
  ) {
    this.job = new PeriodicJob(() => this.reconcile(), config.WEBHOOK_RECONCILE_INTERVAL_MS, { name: 'delivery-reconciliation', owner: 'webhooks' });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async reconcile(): Promise<void> {
    const overdueBefore = new Date(Date.now() - this.config.WEBHOOK_RECONCILE_INTERVAL_MS);
    let after: SeriesCursor | undefined;
    let total = 0;
    try {
      while (!this.job.stopping) {
        const owed = await this.store.overdueSeries(overdueBefore, after, PAGE);
        if (owed.length === 0) break;
        const missing = await this.deliveryQueue.missingJobs(owed.map((series) => series.id));
        // Read again after Redis was: a job that ended meanwhile finished its series before it left Redis.
        const lost = missing.length > 0 ? await this.store.seriesToQueue(missing) : [];
        if (lost.length > 0) await this.deliveryQueue.queue.addBulk(lost.map((series) => jobOfSeries(series, { recheck: true })));
        total += lost.length;
        requeued.inc(lost.length);
        after = owed[owed.length - 1].cursor;
        if (owed.length < PAGE) break;
      }
      runs.inc({ outcome: 'done' });
      if (total > 0) this.logger.warn({ series: total }, 'queued again delivery series that Redis held no job for');
    } catch (error) {
      runs.inc({ outcome: 'failed' });
      this.logger.warn({ err: error }, 'could not reconcile the delivery series; the next run tries again');
    }
  }
}
