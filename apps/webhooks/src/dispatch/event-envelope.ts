import { DomainEvent, isUuid } from '@contracts';

/** An event as the stream carried it, with the exact body receivers get. */
export interface ParsedEvent {
  event: DomainEvent;
  body: string;
}

/** The contract's fields of one event, in their order; undefined for a value that is not an event. */
function readEvent(value: unknown): ParsedEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, event, timestamp, organization_id, data } = value as Record<string, unknown>;
  if (!isUuid(id)) return undefined;
  if (!isUuid(organization_id)) return undefined;
  if (typeof event !== 'string' || typeof timestamp !== 'string') return undefined;
  const payload: DomainEvent = { id, event, timestamp, organization_id, data: data ?? {} };
  return { event: payload, body: JSON.stringify(payload) };
}

/**
 * Reads the events one message of the stream carries: one event, or an array of the events of creates
 * written together (one outbox entry, one message), in their order. A message or an item that is not an
 * event is left out: it can never become one, so it is dropped rather than retried.
 */
export function parseEvents(bytes: Uint8Array): ParsedEvent[] {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const events: ParsedEvent[] = [];
  for (const item of items) {
    const parsed = readEvent(item);
    if (parsed) events.push(parsed);
  }
  return events;
}
