import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { counter, PeriodicJob } from '@platform/service';
import { WebhooksApiConfig } from '../webhooks.config';
import { EventStoreRepository } from './event-store.repository';

const PRUNE_INTERVAL_MS = 3_600_000;
/** Small enough that each transaction holds its locks only briefly. */
const PRUNE_BATCH = 5_000;
const DAY_MS = 86_400_000;

const pruneRuns = counter('webhook_event_prune_runs_total', 'Event store pruning runs by outcome: pruned, busy (another replica was pruning), failed', ['outcome']);
const pruned = counter('webhook_event_pruned_total', 'Rows pruned from the event store past EVENT_RETENTION_DAYS', ['table']);

/**
 * Removes events and delivery records older than EVENT_RETENTION_DAYS, at start-up and then hourly, in
 * the background and never on a request. Replicas share an advisory lock: only one prunes at a time.
 */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventRetention');
  private readonly job = new PeriodicJob(() => this.prune(), PRUNE_INTERVAL_MS, { runAtStart: true, name: 'event-retention', owner: 'webhooks' });

  constructor(
    private readonly store: EventStoreRepository,
    private readonly config: WebhooksApiConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async prune(): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.EVENT_RETENTION_DAYS * DAY_MS);
    const total = { events: 0, messages: 0, deliveries: 0 };
    try {
      while (!this.job.stopping) {
        const batch = await this.store.pruneBatch(cutoff, PRUNE_BATCH);
        if (!batch) {
          pruneRuns.inc({ outcome: 'busy' });
          return;
        }
        for (const table of ['events', 'messages', 'deliveries'] as const) {
          total[table] += batch[table];
          pruned.inc({ table }, batch[table]);
        }
        if (Object.values(batch).every((count) => count < PRUNE_BATCH)) break;
      }
      pruneRuns.inc({ outcome: 'pruned' });
      if (Object.values(total).some((count) => count > 0)) this.logger.log({ ...total, cutoff }, 'pruned the event store');
    } catch (error) {
      pruneRuns.inc({ outcome: 'failed' });
      this.logger.warn({ err: error }, 'could not prune the event store; the next run tries again');
    }
  }
}
