import { NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX } from '@contracts/vocabulary';
import { EVENTS_RETENTION_MS, eventPayloads } from './payload-buckets';

/** How long JetStream remembers a message id to drop a re-published duplicate. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/**
 * Creates the EVENTS stream and the bucket holding the bodies of events too large for one message when
 * they are missing; safe to call from every process at start-up.
 */
export async function ensureEventsStream(nc: NatsConnection, replicas = 1): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: EVENTS_STREAM,
    subjects: [`${EVENTS_SUBJECT_PREFIX}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(EVENTS_RETENTION_MS),
    num_replicas: replicas,
  };
  try {
    await jsm.streams.info(EVENTS_STREAM);
  } catch {
    await jsm.streams.add(config).catch(async (error: Error) => {
      if (!/already in use/i.test(error.message)) throw error;
    });
  }
  await eventPayloads(nc, replicas).ensureBucket();
}
