import type { JobsOptions } from 'bullmq';

/** The initial attempt and five retries. */
export const DELIVERY_ATTEMPTS = 6;
/** The custom backoff the worker's `backoffStrategy` answers for. */
export const RETRY_BACKOFF_TYPE = 'webhook-schedule';

const DAY_SECONDS = 86_400;

/** One event for one webhook; the body is the exact payload that is signed and sent on every attempt. */
export interface DeliveryJob {
  eventId: string;
  eventType: string;
  organizationId: string;
  webhookId: string;
  body: string;
}

/** Event and webhook ids make the job id, so a redelivered event adds no second job (BullMQ ids may not contain ':'). */
export function deliveryJobId(eventId: string, webhookId: string): string {
  return `${eventId}_${webhookId}`;
}

export const deliveryJobOptions: JobsOptions = {
  attempts: DELIVERY_ATTEMPTS,
  backoff: { type: RETRY_BACKOFF_TYPE },
  // Finished jobs are kept a day so their ids still drop a late redelivery of the same event.
  removeOnComplete: { age: DAY_SECONDS },
  removeOnFail: { age: 7 * DAY_SECONDS },
};

export function deliveryJob(data: DeliveryJob): { name: string; data: DeliveryJob; opts: JobsOptions } {
  return { name: data.eventType, data, opts: { ...deliveryJobOptions, jobId: deliveryJobId(data.eventId, data.webhookId) } };
}

/** Retry n (1..5) waits the n-th configured delay after the failure before it. */
export function retryDelay(delays: readonly number[], attemptsMade: number): number {
  return delays[Math.min(Math.max(attemptsMade, 1), delays.length) - 1];
}
