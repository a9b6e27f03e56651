import { DomainEvent, isUuid } from '@contracts';

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
  if (!isUuid(id)) return undefined;
  if (!isUuid(organization_id)) return undefined;
  if (typeof event !== 'string' || typeof timestamp !== 'string') return undefined;
  const payload: DomainEvent = { id, event, timestamp, organization_id, data: data ?? {} };
  return { event: payload, body: JSON.stringify(payload) };
}
