import { createHmac } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature';

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
