import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@contracts';
import { eventSubject } from '@contracts';
import { quoteIdent } from './migrate';

/** DDL for a context's outbox; call it from that context's first migration. */
export function outboxTableSql(schema: string): string[] {
  const table = `${quoteIdent(schema)}.outbox`;
  return [
    `CREATE TABLE ${table} (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
  ];
}

export function buildEvent<D>(organizationId: string, kind: string, data: D, at: Date = new Date()): DomainEvent<D> {
  return { id: randomUUID(), event: kind, timestamp: at.toISOString(), organization_id: organizationId, data };
}

interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Writes events to the outbox with the caller's connection, so they commit or roll back with the change. */
export async function writeToOutbox(db: Queryable, schema: string, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const values: unknown[] = [];
  const tuples = events.map((event, i) => {
    values.push(event.id, eventSubject(event.organization_id, event.event), JSON.stringify(event));
    return `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`;
  });
  await db.query(`INSERT INTO ${quoteIdent(schema)}.outbox (id, subject, payload) VALUES ${tuples.join(', ')}`, values);
}
