import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { backgroundWork, connectRedis, WorkHealth } from '@platform/service';
import { Job, MinimalJob, Worker } from 'bullmq';
import type IORedis from 'ioredis';
import { WebhooksWorkerConfig } from '../webhooks.config';
import { DeliveryJob, retryDelay } from './delivery-job';
import { DeliveryProcessor } from './delivery.processor';
import { WorkerSlots } from './worker-slots';

/** The BullMQ worker of the delivery queue, with the retry schedule as its custom backoff. */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private worker?: Worker<DeliveryJob>;
  private redis?: IORedis;
  private readonly health = new WorkHealth();

  constructor(
    private readonly processor: DeliveryProcessor,
    private readonly slots: WorkerSlots,
    private readonly config: WebhooksWorkerConfig,
  ) {}

  /** Throws unless the worker is taking jobs over a connection that answers. */
  async probe(): Promise<void> {
    if (!this.worker?.isRunning()) throw new Error('worker not running');
    await this.redis?.ping();
  }

  onApplicationBootstrap(): void {
    const config = this.config;
    const delays = config.retryDelays;
    this.redis = connectRedis(config.REDIS_URL, 'queue-worker');
    this.worker = new Worker<DeliveryJob>(config.WEBHOOK_QUEUE, (job: Job<DeliveryJob>, token?: string) => this.processor.attempt(job, token), {
      connection: this.redis,
      concurrency: config.WEBHOOK_WORKER_CONCURRENCY,
      lockDuration: config.WEBHOOK_JOB_LOCK_MS,
      stalledInterval: config.WEBHOOK_STALLED_CHECK_MS,
      // A job whose worker died goes back to the queue; only a job that keeps killing workers is given up.
      maxStalledCount: 5,
      settings: {
        // Counted over the series, so a job queued again after a Redis loss keeps the schedule where it was.
        backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob<DeliveryJob>) =>
          retryDelay(delays, (job?.data.attemptsBefore ?? 0) + attemptsMade),
      },
    });
    this.worker.on('error', (error) => {
      this.health.failed(error);
      this.logger.error({ err: error }, 'delivery worker error');
    });
    // An attempt that ends, delivered or not, shows the worker taking jobs; a receiver's failure is its own.
    this.worker.on('completed', () => this.health.succeeded());
    this.worker.on('failed', () => this.health.succeeded());
    backgroundWork.register({
      name: 'delivery-worker',
      owner: 'webhooks',
      schedule: `per job of the ${config.WEBHOOK_QUEUE} queue, ${config.WEBHOOK_WORKER_CONCURRENCY} at a time`,
      health: () => ({ ...this.health.report(), running: this.worker?.isRunning() ?? false }),
    });
    this.logger.log({ queue: config.WEBHOOK_QUEUE, concurrency: config.WEBHOOK_WORKER_CONCURRENCY, delays }, 'delivery worker started');
  }

  /** Finishes the attempts in flight (bounded by the delivery timeout), then lets go of Redis. */
  async beforeApplicationShutdown(): Promise<void> {
    const closing = this.worker?.close();
    // Jobs waiting here for a slot take one the usual way or are parked, instead of each waiting for an attempt.
    this.slots.close();
    await closing;
    backgroundWork.remove('delivery-worker');
    this.redis?.disconnect();
  }
}
