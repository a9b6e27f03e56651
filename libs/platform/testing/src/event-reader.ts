import { EVENTS_STREAM, type DomainEvent } from '@contracts';
import { eventPayloads } from '@platform/messaging';
import { connect, JsMsg, NatsConnection } from 'nats';
import { stackEnv } from './stack-state';

export interface ReadEvent {
  subject: string;
  /**
   * JetStream's message id header, which the publisher de-duplicated on: the event's id, or for the events
   * of creates written together (one message) the id of the first of them.
   */
  msgId: string | undefined;
  seq: number;
  event: DomainEvent<any>;
}

/**
 * Reads an organization's events back from the EVENTS stream, from the beginning, until `count` have
 * arrived or the time is up (then answers what arrived, so a test can assert on the exact count).
 */
export async function readOrgEvents(orgId: string, { count, timeoutMs = 10_000, natsUrl }: { count: number; timeoutMs?: number; natsUrl?: string }): Promise<ReadEvent[]> {
  const nc = await connect({ servers: natsUrl ?? stackEnv().NATS_URL });
  const events: ReadEvent[] = [];
  try {
    const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, { filterSubjects: `events.${orgId}.>` });
    const deadline = Date.now() + timeoutMs;
    while (events.length < count && Date.now() < deadline) {
      const batch = await consumer.fetch({ max_messages: count - events.length, expires: Math.max(1_000, Math.min(5_000, deadline - Date.now())) });
      for await (const message of batch) {
        events.push(...(await readEvents(nc, message)));
      }
    }
    // Anything beyond `count` shows up as an extra element: callers assert the exact list.
    const extra = await consumer.fetch({ max_messages: 10, expires: 1_000 });
    for await (const message of extra) {
      events.push(...(await readEvents(nc, message)));
    }
    return events;
  } finally {
    await nc.close();
  }
}

/** The events of a message as the fan-out reads them: a large one's body comes from the bucket its claim check names. */
async function readEvents(nc: NatsConnection, message: JsMsg): Promise<ReadEvent[]> {
  const body: unknown = JSON.parse(Buffer.from(await eventPayloads(nc).open(message)).toString('utf8'));
  const msgId = message.headers?.get('Nats-Msg-Id');
  return (Array.isArray(body) ? body : [body]).map((event) => ({ subject: message.subject, msgId, seq: message.seq, event: event as DomainEvent }));
}
