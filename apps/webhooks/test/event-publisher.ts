import { randomUUID } from 'node:crypto';
import { DomainEvent, eventSubject } from '@contracts';
import { stackEnv } from '@platform/testing';
import { connect, NatsConnection } from 'nats';

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

  async close(): Promise<void> {
    await this.nc.close();
  }
}
