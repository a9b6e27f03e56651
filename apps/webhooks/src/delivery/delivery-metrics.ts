import { counter, gauge, histogram } from '@platform/service';

export const deliveryOutcomes = counter(
  'webhook_deliveries_total',
  "Delivery attempts by outcome: success, failure (will retry), exhausted (last attempt failed), skipped (webhook disabled or gone), parked (the webhook's in-flight slots were taken), waiting (held in the worker for a slot of its own), paced (held back by the webhook's rate limit), postponed (our storage failed), test",
  ['outcome'],
);

export const attemptDuration = histogram('webhook_attempt_duration_seconds', 'Time from the start of a delivery attempt to its outcome', ['success'], [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
]);

export const queueDepth = gauge('webhook_queue_jobs', 'Delivery jobs in the queue by state', ['state']);

export const eventsConsumed = counter('webhook_events_consumed_total', 'Events read from JetStream by the fan-out consumer', ['outcome']);

/** Messages whose organization had no active webhook: kept whole, their events neither read apart nor counted above. */
export const messagesKept = counter('webhook_messages_kept_total', 'Stream messages the fan-out kept whole: their organization had no active webhook');

export const jobsEnqueued = counter('webhook_jobs_enqueued_total', 'Delivery jobs added by the fan-out consumer');

export const matchingSeconds = counter(
  'webhook_fan_out_matching_seconds_total',
  "Time the fan-out spent choosing each event's webhooks (on its event loop, no I/O): by kind and table, then by filter and watched fields",
);
