import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { webhooks } from './api-types';

/** Request headers as Node's `IncomingMessage.headers`, a plain object, or a fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

/** Every `event` a receiver can get: the subscribable kinds and `webhook.test` (the document's `webhooks` section). */
export type WebhookEventKind = keyof webhooks & string;

type Flat<T> = { [P in keyof T]: T[P] };
type BodyOf<K extends WebhookEventKind> = webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer Payload } } } ? Payload : never;

/** The payload of one kind, its `event` narrowed to that kind: `WebhookEvent<'row.updated'>['data']['changed_fields']`. */
export type WebhookEvent<K extends WebhookEventKind = WebhookEventKind> = K extends WebhookEventKind ? Flat<BodyOf<K>> : never;

/** What a webhook receiver gets: one payload per kind, narrowed by `event`. */
export type WebhookPayload = WebhookEvent;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** `X-Webhook-Signature`: `sha256=` and the hex HMAC-SHA-256 of the body, keyed with the UTF-8 secret. */
function hasValidHexSignature(secret: string, body: Uint8Array, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`, 'utf8');
  const received = Buffer.from(signature.toLowerCase(), 'utf8');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/**
 * Checks that a webhook request comes from the API and answers its typed payload (narrow it by
 * `event`); throws WebhookVerificationError otherwise. Pass the body exactly as received, before any
 * JSON parsing, and the secret, or during a rotation both the new and the previous one: a request
 * signed with either is genuine.
 *
 * With the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) it
 * verifies those with the `standardwebhooks` library, which also refuses a timestamp more than five
 * minutes away (a replay) and accepts any of the header's signatures. Without them it checks
 * `X-Webhook-Signature`.
 */
export function verifyWebhook(secrets: string | readonly string[], rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookPayload {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const candidates = typeof secrets === 'string' ? [secrets] : secrets;
  if (candidates.length === 0) throw new WebhookVerificationError('no secret to verify with');
  const standardSignature = headerOf(headers, 'webhook-signature');
  if (standardSignature !== undefined) {
    const signed = {
      'webhook-id': headerOf(headers, 'webhook-id') ?? '',
      'webhook-timestamp': headerOf(headers, 'webhook-timestamp') ?? '',
      'webhook-signature': standardSignature,
    };
    const failures = candidates.flatMap((secret) => {
      try {
        new Webhook(secret).verify(body, signed);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
    if (failures.length === candidates.length) throw new WebhookVerificationError(`webhook-signature does not verify: ${failures[0]}`);
  } else {
    const hexSignature = headerOf(headers, 'x-webhook-signature');
    if (hexSignature === undefined) throw new WebhookVerificationError('the request carries no webhook signature');
    if (!candidates.some((secret) => hasValidHexSignature(secret, body, hexSignature))) throw new WebhookVerificationError('X-Webhook-Signature does not verify');
  }
  return JSON.parse(body.toString('utf8')) as WebhookPayload;
}
