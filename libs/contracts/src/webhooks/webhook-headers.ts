/** Headers of every webhook request (lowercase, as Node's http module exposes them to a receiver). */
export const WEBHOOK_HEADERS = {
  signature: 'x-webhook-signature',
  event: 'x-webhook-event',
  /** The event id: the same on every attempt, for de-duplication. */
  eventId: 'x-webhook-id',
  /** This attempt's delivery id: a new one on every attempt. */
  delivery: 'x-webhook-delivery',
  /** Unix time in seconds when the attempt was sent. */
  timestamp: 'x-webhook-timestamp',
  /** Standard Webhooks: the event id, as `x-webhook-id`. */
  standardId: 'webhook-id',
  /** Standard Webhooks: Unix seconds of this attempt, as `x-webhook-timestamp`; part of what is signed. */
  standardTimestamp: 'webhook-timestamp',
  /** Standard Webhooks: `v1,<base64>` per signing secret, space-separated. */
  standardSignature: 'webhook-signature',
} as const;
