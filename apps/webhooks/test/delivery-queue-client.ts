import { randomUUID } from 'node:crypto';
import { DomainEvent } from '@contracts';
import { stackEnv } from '@platform/testing';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { deliveryJob, DeliveryJob } from '../src/delivery/delivery-job';

/**
 * A delivery queue of the test's own: the test stands in for the fan-out and adds jobs the way it does,
 * so that a worker started on this queue is the only one that can take them.
 */
export class DeliveryQueueClient {
  readonly name = `webhook-deliveries-e2e-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly redis = new IORedis(stackEnv().REDIS_URL, { maxRetriesPerRequest: 3 });
  readonly queue = new Queue<DeliveryJob>(this.name, { connection: this.redis });

  async deliver(organizationId: string, webhookId: string, kind: string): Promise<DomainEvent> {
    const event: DomainEvent = { id: randomUUID(), event: kind, timestamp: new Date().toISOString(), organization_id: organizationId, data: { n: 1 } };
    const job = deliveryJob({ eventId: event.id, eventType: kind, organizationId, webhookId, body: JSON.stringify(event) });
    await this.queue.add(job.name, job.data, job.opts);
    return event;
  }

  /** Every key in Redis that names this queue: its own and the workers' in-flight bookkeeping for it. */
  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of this.redis.scanStream({ match: `*${this.name}*`, count: 1_000 })) keys.push(...(batch as string[]));
    return keys;
  }

  async close(): Promise<void> {
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await this.queue.close();
    this.redis.disconnect();
  }
}
