import { DomainEvent } from '@contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads an event from the stream and answers the exact body receivers get, or undefined for a message
 * that is not an event (it can never become one, so it is dropped rather than retried).
 */
export function parseEvent(bytes: Uint8Array): { event: DomainEvent; body: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, event, timestamp, organization_id, data } = value as Record<string, unknown>;
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  if (typeof organization_id !== 'string' || !UUID.test(organization_id)) return undefined;
  if (typeof event !== 'string' || typeof timestamp !== 'string') return undefined;
  const payload: DomainEvent = { id, event, timestamp, organization_id, data: data ?? {} };
  return { event: payload, body: JSON.stringify(payload) };
}
