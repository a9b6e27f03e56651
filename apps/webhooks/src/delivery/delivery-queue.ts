import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/service';
import { Queue } from 'bullmq';
import type IORedis from 'ioredis';
import { WebhooksConfig } from '../webhooks.config';
import { DeliveryJob, deliveryJob, deliveryJobId } from './delivery-job';

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

  /**
   * Series a job carries besides its own (`more`) -> the id of that job, so that a series is found in
   * Redis whichever job carries it. Under the queue's prefix: it goes when the queue is obliterated.
   */
  private carriedKey(): string {
    return this.queue.toKey('carried');
  }

  /**
   * Adds the jobs and notes the series they carry; a job for a series in `again` (its event handed over a
   * second time) is dropped when another job carries that series already. The note and the jobs go out
   * together, in that order, on the one connection: Redis has the note before any job that needs it.
   */
  async add(jobs: Array<ReturnType<typeof deliveryJob>>, again: readonly string[] = []): Promise<number> {
    const carriedNow = new Set(await this.carriedBy(again).then((owners) => again.filter((_, i) => owners[i] !== null)));
    const kept = jobs.filter((job) => !carriedNow.has(deliveryJobId(job.data)));
    const carried = kept.flatMap((job) => (job.data.more ?? []).map((delivery) => [delivery.seriesId, deliveryJobId(job.data)]));
    await Promise.all([carried.length > 0 ? this.redis.hset(this.carriedKey(), Object.fromEntries(carried)) : undefined, this.addJobs(kept)]);
    return kept.length;
  }

  /**
   * One job goes as one script call: `addBulk` sends through a pipeline, and ioredis copies onto every
   * pipeline each script the connection defines (BullMQ's 64), 44 us a pipeline. A steady trickle of events
   * makes one job per fan-out batch, so most batches pay that for nothing.
   */
  private async addJobs(jobs: Array<ReturnType<typeof deliveryJob>>): Promise<void> {
    if (jobs.length === 1) await this.queue.add(jobs[0].name, jobs[0].data, jobs[0].opts);
    else if (jobs.length > 1) await this.queue.addBulk(jobs);
  }

  /** The job that carries each of these series besides its own, or null. */
  private async carriedBy(seriesIds: readonly string[]): Promise<Array<string | null>> {
    return seriesIds.length === 0 ? [] : this.redis.hmget(this.carriedKey(), ...seriesIds);
  }

  /** Forgets that these series were carried (their job has sent them, or handed them on to jobs of their own). */
  private async forgetCarried(seriesIds: readonly string[]): Promise<void> {
    if (seriesIds.length > 0) await this.redis.hdel(this.carriedKey(), ...seriesIds);
  }

  /** What a job carried is no longer its: it sent those deliveries, and `jobs` go on with the ones it did not finish. */
  async handOver(carrier: DeliveryJob, jobs: Array<ReturnType<typeof deliveryJob>>): Promise<void> {
    await this.forgetCarried((carrier.more ?? []).map((delivery) => delivery.seriesId));
    await this.add(jobs);
  }

  /** Which of these series Redis holds no job for, in any state: neither a job of their own nor one that carries them. */
  async missingJobs(seriesIds: string[]): Promise<string[]> {
    if (seriesIds.length === 0) return [];
    const owners = await this.carriedBy(seriesIds);
    const pipeline = this.redis.pipeline();
    seriesIds.forEach((id, i) => pipeline.exists(this.queue.toKey(id), this.queue.toKey(owners[i] ?? id)));
    const answers = (await pipeline.exec()) ?? [];
    return seriesIds.filter((_, i) => {
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
   * Removes the jobs of these series, whatever their state: each one's own and any that carries it; a job a
   * worker holds right now stays (BullMQ refuses to remove a locked job). Answers how many were removed.
   */
  async removeJobs(seriesIds: string[]): Promise<number> {
    let removed = 0;
    for (let start = 0; start < seriesIds.length; start += REMOVE_CHUNK) {
      const chunk = seriesIds.slice(start, start + REMOVE_CHUNK);
      const carriers = (await this.carriedBy(chunk)).filter((owner): owner is string => owner !== null);
      const jobIds = [...new Set([...chunk, ...carriers])];
      const answers = await Promise.all(jobIds.map((id) => this.queue.remove(id)));
      await this.forgetCarried(chunk);
      removed += answers.reduce((sum, answer) => sum + answer, 0);
    }
    return removed;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
