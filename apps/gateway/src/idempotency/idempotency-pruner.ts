import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { IdempotencyRepository } from './idempotency.repository';

const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 1_000;

/**
 * Removes idempotency keys past their 24 hours in the background, in small batches, never on a request.
 * Expired keys are already ignored by claims, so pruning only keeps the table small; replicas may overlap.
 */
@Injectable()
export class IdempotencyPruner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyPruner');
  private readonly job = new PeriodicJob(() => this.prune(), PRUNE_EVERY_MS, { name: 'idempotency-key-pruning', owner: 'gateway' });

  constructor(private readonly keys: IdempotencyRepository) {}

  onModuleInit(): void {
    this.job.start();
  }

  /** A run in flight is not waited for: expired keys are ignored anyway, and the next start prunes on. */
  onApplicationShutdown(): void {
    void this.job.stop();
  }

  private async prune(): Promise<void> {
    try {
      let deleted = 0;
      for (let batch = PRUNE_BATCH; batch === PRUNE_BATCH; deleted += batch) batch = await this.keys.pruneExpired(PRUNE_BATCH);
      if (deleted > 0) this.logger.log({ deleted }, 'expired idempotency keys removed');
    } catch (error) {
      this.logger.warn({ err: error }, 'pruning idempotency keys failed; the next run tries again');
    }
  }
}
