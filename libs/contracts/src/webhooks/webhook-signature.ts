import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

/**
 * The `X-Webhook-Signature` value of a body: `sha256=` and the lowercase hex HMAC-SHA-256 of the exact
 * body bytes, keyed with the UTF-8 bytes of the whole secret string (`whsec_` included).
 */
export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return PREFIX + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * Checks a received `X-Webhook-Signature` against the raw body, in constant time. Pass the body bytes
 * exactly as received, before any JSON parsing: re-serializing can change them.
 */
export function verifyWebhookSignature(secret: string, body: string | Uint8Array, signature: string | string[] | undefined): boolean {
  if (typeof signature !== 'string' || !signature.startsWith(PREFIX)) return false;
  const expected = Buffer.from(signWebhookBody(secret, body), 'utf8');
  const received = Buffer.from(signature.toLowerCase(), 'utf8');
  return expected.length === received.length && timingSafeEqual(expected, received);
}
