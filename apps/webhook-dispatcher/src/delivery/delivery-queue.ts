import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Readiness } from '@platform/service';
import { Queue } from 'bullmq';
import IORedis, { RedisOptions } from 'ioredis';
import { WebhooksConfig } from '../webhooks.config';
import type { DeliveryJob } from './delivery-job';

/**
 * A Redis connection for BullMQ. Workers block on Redis and must wait through a Redis restart
 * (`maxRetriesPerRequest: null`); producers fail fast instead, so an event is nak'ed and comes back.
 */
export function redisConnection(url: string, role: 'worker' | 'producer'): IORedis {
  const options: RedisOptions = { maxRetriesPerRequest: role === 'worker' ? null : 3 };
  return new IORedis(url, options);
}

/** The delivery queue as producers (fan-out, retry cancellation, depth metrics) see it. */
@Injectable()
export class DeliveryQueue implements OnModuleInit, OnApplicationShutdown {
  readonly queue: Queue<DeliveryJob>;
  private readonly redis: IORedis;

  constructor(
    config: WebhooksConfig,
    private readonly readiness: Readiness,
  ) {
    this.redis = redisConnection(config.REDIS_URL, 'producer');
    this.queue = new Queue<DeliveryJob>(config.WEBHOOK_QUEUE, { connection: this.redis });
  }

  onModuleInit(): void {
    this.readiness.register('redis', async () => {
      await this.redis.ping();
    });
  }

  /** Removes the webhook's jobs waiting for a retry; anything already queued is dropped by the worker's re-check. */
  async cancelPendingRetries(webhookId: string): Promise<number> {
    const delayed = await this.queue.getDelayed(0, -1);
    const mine = delayed.filter((job) => job?.data?.webhookId === webhookId);
    await Promise.all(mine.map((job) => job.remove().catch(() => undefined)));
    return mine.length;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
