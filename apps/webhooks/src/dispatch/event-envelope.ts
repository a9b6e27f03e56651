import { DomainEvent, isUuid } from '@contracts';

/** An event as the stream carried it, with the exact body receivers get (made when first asked for). */
export interface ParsedEvent {
  event: DomainEvent;
  readonly body: string;
}

/** What one message of the stream carries. */
export interface ParsedMessage {
  events: ParsedEvent[];
  /**
   * The events' bodies as one JSON array text, when the message is exactly their JSON (every item an event
   * with the contract's fields in their order, as every outbox writes them): the bodies as written, which
   * the store keeps without writing each one again.
   */
  bodies?: string;
}

const CONTRACT_FIELDS = ['id', 'event', 'timestamp', 'organization_id', 'data'];

function parsedEvent(event: DomainEvent): ParsedEvent {
  let body: string | undefined;
  return {
    event,
    get body() {
      return (body ??= JSON.stringify(event));
    },
  };
}

/** The contract's fields of one event, in their order; undefined for a value that is not an event. */
function readEvent(value: unknown): { parsed: ParsedEvent; asWritten: boolean } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, event, timestamp, organization_id, data } = value as Record<string, unknown>;
  if (!isUuid(id)) return undefined;
  if (!isUuid(organization_id)) return undefined;
  if (typeof event !== 'string' || typeof timestamp !== 'string') return undefined;
  const keys = Object.keys(value);
  const asWritten = data !== undefined && data !== null && keys.length === CONTRACT_FIELDS.length && keys.every((key, i) => key === CONTRACT_FIELDS[i]);
  return { parsed: parsedEvent({ id, event, timestamp, organization_id, data: data ?? {} }), asWritten };
}

/** A message's text, read in place: Buffer.from(bytes) alone would copy the message first. */
export function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * Reads the events one message of the stream carries: one event, or an array of the events of creates
 * written together (one outbox entry, one message), in their order. A message or an item that is not an
 * event is left out: it can never become one, so it is dropped rather than retried.
 */
export function parseMessage(bytes: Uint8Array): ParsedMessage {
  const text = textOf(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { events: [] };
  }
  const single = !Array.isArray(value);
  const items = single ? [value] : (value as unknown[]);
  const events: ParsedEvent[] = [];
  let asWritten = items.length > 0;
  for (const item of items) {
    const read = readEvent(item);
    if (read) events.push(read.parsed);
    asWritten &&= read?.asWritten === true;
  }
  if (!asWritten) return { events };
  const [open, close] = single ? ['{', '}'] : ['[', ']'];
  if (!text.startsWith(open) || !text.endsWith(close)) return { events };
  return { events, bodies: single ? `[${text}]` : text };
}
