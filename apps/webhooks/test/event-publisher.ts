import { randomUUID } from 'node:crypto';
import { DomainEvent, eventSubject } from '@contracts';
import { eventually, stackEnv, testDatabaseUrl } from '@platform/testing';
import { connect, NatsConnection } from 'nats';
import { Client } from 'pg';

/** Publishes events to the EVENTS stream the way the outbox relays do: subject per org and kind, msgID = event id. */
export class EventPublisher {
  private constructor(private readonly nc: NatsConnection) {}

  static async connect(): Promise<EventPublisher> {
    return new EventPublisher(await connect({ servers: stackEnv().NATS_URL }));
  }

  async publish(organizationId: string, kind: string, data: unknown = { sample: true }, id: string = randomUUID()): Promise<DomainEvent> {
    const event: DomainEvent = { id, event: kind, timestamp: new Date().toISOString(), organization_id: organizationId, data };
    await this.nc.jetstream().publish(eventSubject(organizationId, kind), new TextEncoder().encode(JSON.stringify(event)), { msgID: id });
    return event;
  }

  /** Publishes events of one kind in one message, as a relay publishes the creates of a batch: a JSON array under one message id. */
  async publishTogether(organizationId: string, kind: string, data: unknown[]): Promise<DomainEvent[]> {
    const sent: DomainEvent[] = data.map((one) => ({ id: randomUUID(), event: kind, timestamp: new Date().toISOString(), organization_id: organizationId, data: one }));
    await this.nc.jetstream().publish(eventSubject(organizationId, kind), new TextEncoder().encode(JSON.stringify(sent)), { msgID: randomUUID() });
    return sent;
  }

  /** Publishes an event under a message id of the caller's choice, as a second publisher of the same event would. */
  async publishAs(event: DomainEvent, msgID: string): Promise<void> {
    await this.nc.jetstream().publish(eventSubject(event.organization_id, event.event), new TextEncoder().encode(JSON.stringify(event)), { msgID });
  }

  /**
   * Waits until the webhooks service has stored these events: a test about events that arrived while a webhook
   * was disabled must not change the webhook before the service has seen them (on a loaded machine the stream's
   * consumer can be seconds behind).
   */
  async untilStored(events: DomainEvent[]): Promise<void> {
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const ids = events.map((event) => event.id);
      await eventually(
        async () => {
          const { rows } = await db.query<{ stored: number }>('SELECT count(*)::int AS stored FROM webhooks.stored_events WHERE id = ANY($1::uuid[])', [ids]);
          expect(rows[0].stored).toBe(new Set(ids).size);
        },
        { timeoutMs: 30_000 },
      );
    } finally {
      await db.end();
    }
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}
