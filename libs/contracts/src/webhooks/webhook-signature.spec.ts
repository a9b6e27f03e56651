import { createHmac, randomBytes } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { signStandardWebhook, signWebhookBody, standardWebhookKey, verifyWebhookSignature } from './webhook-signature';

const secret = 'whsec_3q2+7w==ünïcode';
const body = JSON.stringify({ id: 'e1', event: 'row.created', data: { name: 'Zoë', n: 1.5 } });

describe('webhook signature', () => {
  it('is sha256= and the lowercase hex HMAC-SHA-256 of the body keyed with the UTF-8 secret', () => {
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signWebhookBody(secret, body)).toBe(`sha256=${expected}`);
    expect(signWebhookBody(secret, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('is accepted by a well-known third-party verifier (@octokit/webhooks-methods)', async () => {
    await expect(octokitVerify(secret, body, signWebhookBody(secret, body))).resolves.toBe(true);
    await expect(octokitVerify(secret, `${body} `, signWebhookBody(secret, body))).resolves.toBe(false);
    await expect(octokitVerify('whsec_other', body, signWebhookBody(secret, body))).resolves.toBe(false);
  });

  it('signs bytes and strings alike', () => {
    expect(signWebhookBody(secret, Buffer.from(body, 'utf8'))).toBe(signWebhookBody(secret, body));
  });

  it('verifies its own signature and rejects tampering, another secret and malformed headers', () => {
    const signature = signWebhookBody(secret, body);
    expect(verifyWebhookSignature(secret, body, signature)).toBe(true);
    expect(verifyWebhookSignature(secret, Buffer.from(body), signature.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifyWebhookSignature(secret, body.replace('1.5', '1.6'), signature)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', body, signature)).toBe(false);
    expect(verifyWebhookSignature(secret, body, signature.slice(0, -2))).toBe(false);
    expect(verifyWebhookSignature(secret, body, signature.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifyWebhookSignature(secret, body, undefined)).toBe(false);
    expect(verifyWebhookSignature(secret, body, [signature])).toBe(false);
  });
});

describe('Standard Webhooks signature', () => {
  const id = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  const now = () => Math.floor(Date.now() / 1000);
  const headers = (signature: string, timestamp: number) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
  const standard = `whsec_${randomBytes(32).toString('base64')}`;

  it('is v1 and the base64 HMAC-SHA-256 of id.timestamp.body keyed with the decoded secret', () => {
    const timestamp = now();
    const expected = createHmac('sha256', Buffer.from(standard.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(signStandardWebhook([standard], id, timestamp, body)).toBe(`v1,${expected}`);
  });

  it('is accepted by the standardwebhooks package, which refuses another body, id, timestamp or secret', () => {
    const timestamp = now();
    const signature = signStandardWebhook([standard], id, timestamp, body);
    expect(new Webhook(standard).verify(body, headers(signature, timestamp))).toEqual(JSON.parse(body));
    expect(() => new Webhook(standard).verify(`${body} `, headers(signature, timestamp))).toThrow();
    expect(() => new Webhook(standard).verify(body, { ...headers(signature, timestamp), 'webhook-id': 'other' })).toThrow();
    expect(() => new Webhook(standard).verify(body, headers(signature, timestamp + 1))).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(body, headers(signature, timestamp))).toThrow();
  });

  it('carries one signature per secret, each verifying with its own secret', () => {
    const timestamp = now();
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const signature = signStandardWebhook([standard, previous], id, timestamp, body);
    expect(signature.split(' ')).toEqual([signStandardWebhook([standard], id, timestamp, body), signStandardWebhook([previous], id, timestamp, body)]);
    expect(new Webhook(standard).verify(body, headers(signature, timestamp))).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers(signature, timestamp))).toBeTruthy();
  });

  it('keeps a secret made before standard base64 (base64url) verifying both ways', async () => {
    const bytes = randomBytes(32);
    const old = `whsec_${bytes.toString('base64url')}`;
    expect(standardWebhookKey(old)).toEqual(bytes);
    const timestamp = now();
    const signature = signStandardWebhook([old], id, timestamp, body);
    expect(new Webhook(bytes, { format: 'raw' }).verify(body, headers(signature, timestamp))).toBeTruthy();
    expect(new Webhook(`whsec_${bytes.toString('base64')}`).verify(body, headers(signature, timestamp))).toBeTruthy();
    await expect(octokitVerify(old, body, signWebhookBody(old, body))).resolves.toBe(true);
  });
});
