import type { NatsConnection } from 'nats';
import { eventPayloadBucket, LargePayloads, requestPayloadBucket } from './large-payloads';

/** How long the EVENTS stream keeps an event, and so the body of a large one. */
export const EVENTS_RETENTION_MS = 7 * 24 * 3_600_000;

const requests = new WeakMap<NatsConnection, LargePayloads>();
const events = new WeakMap<NatsConnection, LargePayloads>();

/** The carrier of a connection's request and reply bodies (one per connection, so the bucket is looked up once). */
export function requestPayloads(nc: NatsConnection): LargePayloads {
  let payloads = requests.get(nc);
  if (!payloads) requests.set(nc, (payloads = new LargePayloads(nc, requestPayloadBucket())));
  return payloads;
}

/** The carrier of a connection's event bodies; `replicas` applies when the bucket is created. */
export function eventPayloads(nc: NatsConnection, replicas = 1): LargePayloads {
  let payloads = events.get(nc);
  if (!payloads) events.set(nc, (payloads = new LargePayloads(nc, eventPayloadBucket(EVENTS_RETENTION_MS, replicas))));
  return payloads;
}
