import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/service';
import { Queue } from 'bullmq';
import type IORedis from 'ioredis';
import { WebhooksConfig } from '../webhooks.config';
import type { DeliveryJob } from './delivery-job';

/** Jobs removed at once, so that a webhook with a large backlog does not flood Redis with one burst. */
const REMOVE_CHUNK = 500;

/** The delivery queue as producers (fan-out, removal of a deleted webhook's jobs, depth metrics) see it, on the process's Redis client. */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  readonly queue: Queue<DeliveryJob>;

  constructor(
    config: WebhooksConfig,
    @Inject(REDIS_CLIENT) private readonly redis: IORedis,
  ) {
    this.queue = new Queue<DeliveryJob>(config.WEBHOOK_QUEUE, { connection: redis });
  }

  /** Which of these job ids Redis holds no job for, in any state. */
  async missingJobs(jobIds: string[]): Promise<string[]> {
    if (jobIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of jobIds) pipeline.exists(this.queue.toKey(id));
    const answers = (await pipeline.exec()) ?? [];
    return jobIds.filter((_, i) => {
      const [error, exists] = answers[i] ?? [new Error('no answer'), 0];
      if (error) throw error;
      return exists === 0;
    });
  }

  /**
   * Runs a job that waits in the delayed set now; one that is not delayed (any more) is left as it is.
   * Answers false when the queue holds no such job.
   */
  async promote(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    await job.promote().catch(() => undefined);
    return true;
  }

  /**
   * Removes these jobs by id, whatever their state; a job a worker holds right now stays (BullMQ refuses
   * to remove a locked job). Answers how many were removed.
   */
  async removeJobs(jobIds: string[]): Promise<number> {
    let removed = 0;
    for (let start = 0; start < jobIds.length; start += REMOVE_CHUNK) {
      const answers = await Promise.all(jobIds.slice(start, start + REMOVE_CHUNK).map((id) => this.queue.remove(id)));
      removed += answers.reduce((sum, answer) => sum + answer, 0);
    }
    return removed;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
