import type { JobsOptions } from 'bullmq';

/** The initial attempt and five retries. */
export const DELIVERY_ATTEMPTS = 6;
/** The custom backoff the worker's `backoffStrategy` answers for. */
export const RETRY_BACKOFF_TYPE = 'webhook-schedule';

/** One delivery series (one event for one webhook); the body is the exact payload that is signed and sent on every attempt. */
export interface DeliveryJob {
  /** The series in the event store; jobs queued before the store existed have none. */
  seriesId?: string;
  eventId: string;
  eventType: string;
  /** The table of a `row.*`/`table.*` event, for webhooks narrowed to tables; jobs queued before it existed have none. */
  tableId?: string | null;
  organizationId: string;
  webhookId: string;
  body: string;
  /** Asked for by the customer (redeliver, recover): sent even while the webhook is disabled. */
  explicit?: boolean;
  /** Attempts the series made before this job, when it is queued again after Redis lost the first one. */
  attemptsBefore?: number;
  /**
   * Queued for a series opened before (its event handed over again, or the series found without a job):
   * the job that had it may have finished it and left the queue meanwhile, so even this job's first run
   * sends only if the series is still owed.
   */
  recheck?: boolean;
  /**
   * First attempts of more series of the same webhook, from the same fan-out: the job sends them one after
   * another on its one slot, after its own, so that a backlog costs one job's moves in the queue per
   * DELIVERIES_PER_JOB deliveries instead of one per delivery. A series among them that fails goes on as a
   * job of its own (the job itself, when its own series fails).
   */
  more?: CarriedDelivery[];
}

/** A delivery a job carries besides its own (see DeliveryJob.more). */
export type CarriedDelivery = Required<Pick<DeliveryJob, 'seriesId' | 'eventId' | 'eventType' | 'body'>> & Pick<DeliveryJob, 'tableId'>;

/** The most deliveries one job carries (its own and `more`): a job holds its slot while it sends them, about one per few ms. */
export const DELIVERIES_PER_JOB = 20;
/**
 * The fewest of one fan-out's deliveries to a webhook a job carries when there are that many: a job's moves
 * through the queue cost the worker and Redis several times what one more request on the slot it holds does,
 * and a quick receiver answers each in a few milliseconds.
 */
export const DELIVERIES_PER_JOB_AT_LEAST = 4;

/** The series id is the job id, so a series is queued at most once (a repeated add is dropped). */
export function deliveryJobId(data: Pick<DeliveryJob, 'seriesId' | 'eventId' | 'webhookId'>): string {
  return data.seriesId ?? `${data.eventId}_${data.webhookId}`;
}

export const deliveryJobOptions: JobsOptions = {
  attempts: DELIVERY_ATTEMPTS,
  backoff: { type: RETRY_BACKOFF_TYPE },
  // Redis holds only work in progress. A finished job's series is finished in Postgres before the job
  // ends, so a late repeat of it (the fan-out handed the event again, the reconciler) queues nothing.
  removeOnComplete: true,
  removeOnFail: true,
};

export function deliveryJob(data: DeliveryJob, delayMs = 0): { name: string; data: DeliveryJob; opts: JobsOptions } {
  const attempts = DELIVERY_ATTEMPTS - (data.attemptsBefore ?? 0);
  return { name: data.eventType, data, opts: { ...deliveryJobOptions, attempts, delay: Math.max(0, delayMs), jobId: deliveryJobId(data) } };
}

/** The attempt number (1..6) a job is making now, counting the attempts of its series before it. */
export function attemptNumber(data: DeliveryJob, attemptsMade: number): number {
  return Math.min((data.attemptsBefore ?? 0) + attemptsMade + 1, DELIVERY_ATTEMPTS);
}

/** Retry n (1..5) waits the n-th configured delay after the failure before it. */
export function retryDelay(delays: readonly number[], attemptsMade: number): number {
  return delays[Math.min(Math.max(attemptsMade, 1), delays.length) - 1];
}

/** A job's deliveries: its own, then the ones it carries. */
export function deliveriesOf(data: DeliveryJob): CarriedDelivery[] {
  const { seriesId, eventId, eventType, tableId, body } = data;
  const own = seriesId ? [{ seriesId, eventId, eventType, tableId, body }] : [];
  return [...own, ...(data.more ?? [])];
}
