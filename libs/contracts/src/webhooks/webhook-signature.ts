import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';
const SECRET_PREFIX = 'whsec_';

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

/**
 * The Standard Webhooks key of a secret: the bytes its part after `whsec_` decodes to. Secrets made
 * before the switch to standard base64 are base64url, which the same decoding reads to the same bytes.
 */
export function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * The `webhook-signature` value: `v1,<base64 HMAC-SHA-256 of "{id}.{timestamp}.{body}">` for each secret,
 * space-separated in the order given (during a rotation, the new secret first).
 */
export function signStandardWebhook(secrets: readonly string[], id: string, timestamp: number, body: string | Uint8Array): string {
  const prefix = Buffer.from(`${id}.${timestamp}.`, 'utf8');
  return secrets
    .map((secret) => `v1,${createHmac('sha256', standardWebhookKey(secret)).update(prefix).update(body).digest('base64')}`)
    .join(' ');
}
