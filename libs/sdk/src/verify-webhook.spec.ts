import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  id: '0b6f1f1e-8a55-4c1b-9a6e-5f3d2f0c9e11',
  event: 'row.created',
  timestamp: '2026-11-23T08:00:00.000Z',
  organization_id: '6a0c7f43-0a5b-4f7a-9d59-0f7b3f1c2d4e',
  data: { table_id: 't', table_name: 'Leads', row_id: 'r', row_data: { name: 'Zoë' } },
});
const hex = (key: string, payload: string) => `sha256=${createHmac('sha256', Buffer.from(key, 'utf8')).update(payload).digest('hex')}`;

function standardHeaders(key: string, payload: string, at = new Date()): Record<string, string> {
  const id = 'evt_1';
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key).sign(id, at, payload) };
}

describe('verifyWebhook', () => {
  it('answers the payload of a request signed with X-Webhook-Signature, from a string, bytes, or fetch Headers', () => {
    const headers = { 'X-Webhook-Signature': hex(secret, body), 'content-type': 'application/json' };
    expect(verifyWebhook(secret, body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, Buffer.from(body), headers).event).toBe('row.created');
    expect(verifyWebhook(secret, new TextEncoder().encode(body), new Headers(headers)).id).toBe(JSON.parse(body).id);
  });

  it('refuses X-Webhook-Signature over another body, with another secret, or missing', () => {
    expect(() => verifyWebhook(secret, body.replace('Zoë', 'Zoe'), { 'x-webhook-signature': hex(secret, body) })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body, { 'x-webhook-signature': hex(`${secret}x`, body) })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body, {})).toThrow(/no webhook signature/);
  });

  it('verifies the Standard Webhooks headers, including two signatures during a secret rotation', () => {
    expect(verifyWebhook(secret, body, standardHeaders(secret, body)).event).toBe('row.created');
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const headers = standardHeaders(secret, body);
    const rotated = { ...headers, 'webhook-signature': `${headers['webhook-signature']} ${standardHeaders(previous, body)['webhook-signature']}` };
    expect(verifyWebhook(secret, body, rotated).event).toBe('row.created');
    expect(verifyWebhook(previous, body, rotated).event).toBe('row.created');
  });

  it('refuses Standard Webhooks headers over another body, with another secret, or too old (a replay)', () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => verifyWebhook(secret, `${body} `, standardHeaders(secret, body))).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(other, body, standardHeaders(secret, body))).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body, standardHeaders(secret, body, new Date(Date.now() - 10 * 60_000)))).toThrow(WebhookVerificationError);
  });

  it('takes the new and the previous secret during a rotation: a request signed with either verifies', () => {
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const stranger = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifyWebhook([secret, previous], body, standardHeaders(previous, body)).event).toBe('row.created');
    expect(verifyWebhook([secret, previous], body, standardHeaders(secret, body)).event).toBe('row.created');
    expect(verifyWebhook([secret, previous], body, { 'x-webhook-signature': hex(previous, body) }).event).toBe('row.created');
    expect(() => verifyWebhook([secret, previous], body, standardHeaders(stranger, body))).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook([], body, standardHeaders(secret, body))).toThrow(/no secret/);
  });

  it('answers a payload typed by its kind', () => {
    const payload = verifyWebhook(secret, body, standardHeaders(secret, body));
    // Narrowing by event gives the data of that kind; a wrong property would not compile.
    const rowId: string | undefined = payload.event === 'row.created' ? payload.data.row_id : undefined;
    expect(rowId).toBe('r');
  });
});
