import { randomUUID } from 'node:crypto';
import { verifyWebhookSignature } from '@contracts';
import { apiClient, createTestOrg, eventually, ReceivedRequest } from '@platform/testing';
import { Webhook } from 'standardwebhooks';
import { createWebhook, uniquePath, webhookScene } from './webhook-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether a Standard Webhooks receiver holding `secret` accepts the request. */
function acceptedBy(secret: string, hit: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(hit.body.toString('utf8'), hit.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

describe('GET /webhooks/{id} and secret rotation', () => {
  const scene = webhookScene({ publisher: true });

  /** Publishes one event and answers the request it arrived as. */
  async function deliverOne(path: string): Promise<ReceivedRequest> {
    const event = await scene.events.publish(scene.orgId, 'row.created');
    return eventually(() => {
      const hit = scene.receiver.at(path).find((request) => request.headers['webhook-id'] === event.id);
      expect(hit).toBeDefined();
      return hit as ReceivedRequest;
    });
  }

  it('answers one webhook as the list shows it, never with its secret; another organization gets 404', async () => {
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('get')), ['row.created', 'table.deleted'], 'One');
    const response = await scene.api.get(`/webhooks/${hook.id}`);
    expect(response.status).toBe(200);
    const listed = (await scene.api.get('/webhooks?limit=100')).body.data.find((webhook: { id: string }) => webhook.id === hook.id);
    expect(response.body).toEqual({ success: true, data: listed });
    expect(response.body.data).toMatchObject({ id: hook.id, name: 'One', events: ['row.created', 'table.deleted'], active: true, status: 'active' });
    expect(JSON.stringify(response.body)).not.toContain(hook.secret.slice(6));
    expect((await scene.other.get(`/webhooks/${hook.id}`)).status).toBe(404);
    expect((await scene.api.get(`/webhooks/${randomUUID()}`)).body.error.code).toBe('NOT_FOUND');
  });

  it('rotates: both secrets sign during the overlap (new first), X-Webhook-Signature uses the new one at once', async () => {
    const path = uniquePath('rotate');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const before = Date.now();
    const rotated = await scene.api.post(`/webhooks/${hook.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      success: true,
      data: { id: hook.id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), previous_secret_expires_at: expect.stringMatching(ISO) },
    });
    const { secret, previous_secret_expires_at: expiresAt } = rotated.body.data;
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(86_400_000 - 1_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(86_400_000);

    const hit = await deliverOne(path);
    const signatures = String(hit.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(acceptedBy(secret, hit)).toBe(true);
    expect(acceptedBy(hook.secret, hit)).toBe(true);
    expect(acceptedBy(secret, { ...hit, headers: { ...hit.headers, 'webhook-signature': signatures[0] } })).toBe(true);
    expect(verifyWebhookSignature(secret, hit.body, hit.headers['x-webhook-signature'])).toBe(true);
    expect(verifyWebhookSignature(hook.secret, hit.body, hit.headers['x-webhook-signature'])).toBe(false);

    for (const response of [await scene.api.get(`/webhooks/${hook.id}`), await scene.api.get('/webhooks?limit=100'), await scene.api.patch(`/webhooks/${hook.id}`, { name: 'x' })]) {
      expect(JSON.stringify(response.body)).not.toContain(secret.slice(6));
    }
  });

  it('retires the previous secret when the overlap ends, at once with 0', async () => {
    const path = uniquePath('rotate-now');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const short = await scene.api.post(`/webhooks/${hook.id}/rotate-secret`, { expire_previous_in_seconds: 1 });
    const middle = short.body.data.secret;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const afterExpiry = await deliverOne(path);
    expect(String(afterExpiry.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(acceptedBy(middle, afterExpiry)).toBe(true);
    expect(acceptedBy(hook.secret, afterExpiry)).toBe(false);

    const now = await scene.api.post(`/webhooks/${hook.id}/rotate-secret`, { expire_previous_in_seconds: 0 });
    expect(now.status).toBe(200);
    const hit = await deliverOne(path);
    expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(acceptedBy(now.body.data.secret, hit)).toBe(true);
    expect(acceptedBy(middle, hit)).toBe(false);
  });

  it.each([
    ['a negative overlap', { expire_previous_in_seconds: -1 }],
    ['an overlap over a week', { expire_previous_in_seconds: 604_801 }],
    ['a fractional overlap', { expire_previous_in_seconds: 1.5 }],
    ['an overlap that is a string', { expire_previous_in_seconds: '60' }],
    ['an unknown property', { secret: 'whsec_mine' }],
  ])('refuses %s with VALIDATION_ERROR, keeping the secret', async (_what, body) => {
    const path = uniquePath('rotate-refused');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const response = await scene.api.post(`/webhooks/${hook.id}/rotate-secret`, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field: Object.keys(body)[0] } } });
    const hit = await deliverOne(path);
    expect(acceptedBy(hook.secret, hit)).toBe(true);
    expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('answers 404 for another organization’s webhook and needs webhooks:write', async () => {
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('rotate-owner')), ['row.created']);
    expect((await scene.other.post(`/webhooks/${hook.id}/rotate-secret`, {})).status).toBe(404);
    const reader = apiClient((await createTestOrg({ scopes: 'webhooks:read' })).key);
    expect((await reader.post(`/webhooks/${hook.id}/rotate-secret`, {})).status).toBe(403);
  });
});
