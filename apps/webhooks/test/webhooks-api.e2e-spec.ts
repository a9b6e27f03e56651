import { randomUUID } from 'node:crypto';
import { verifyWebhookSignature } from '@contracts';
import { apiClient, createTestOrg, freePort } from '@platform/testing';
import { createWebhook, deliveriesOf, uniquePath, webhookScene } from './webhook-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('webhooks API', () => {
  const scene = webhookScene();

  describe('POST /webhooks', () => {
    it('answers 201 with the webhook and its secret, once', async () => {
      const url = scene.receiver.url(uniquePath('create'));
      const response = await scene.api.post('/webhooks', { name: 'Orders', url, events: ['row.created', 'member.invited'] });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(UUID),
          name: 'Orders',
          url,
          events: ['row.created', 'member.invited'],
          table_ids: null,
          filter: null, watch_fields: null, filter_error: null, rate_limit: null,
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
          is_active: true,
          active: true,
          status: 'active',
          created_at: expect.stringMatching(ISO),
        },
      });
      const listed = await scene.api.get('/webhooks?limit=100');
      expect(JSON.stringify(listed.body)).not.toContain(response.body.data.secret);
      const patched = await scene.api.patch(`/webhooks/${response.body.data.id}`, { name: 'Orders 2' });
      expect(JSON.stringify(patched.body)).not.toContain(response.body.data.secret);
    });

    it.each([
      ['a missing name', { url: 'https://example.com/h', events: ['row.created'] }, 'name'],
      ['an empty name', { name: '', url: 'https://example.com/h', events: ['row.created'] }, 'name'],
      ['a name over 100 characters', { name: 'x'.repeat(101), url: 'https://example.com/h', events: ['row.created'] }, 'name'],
      ['a relative url', { name: 'a', url: '/hook', events: ['row.created'] }, 'url'],
      ['an ftp url', { name: 'a', url: 'ftp://example.com/h', events: ['row.created'] }, 'url'],
      ['a url that is not a string', { name: 'a', url: 42, events: ['row.created'] }, 'url'],
      ['empty events', { name: 'a', url: 'https://example.com/h', events: [] }, 'events'],
      ['an unknown event', { name: 'a', url: 'https://example.com/h', events: ['row.exploded'] }, 'events'],
      ['duplicate events', { name: 'a', url: 'https://example.com/h', events: ['row.created', 'row.created'] }, 'events'],
      ['events that are not an array', { name: 'a', url: 'https://example.com/h', events: 'row.created' }, 'events'],
      ['an unknown property', { name: 'a', url: 'https://example.com/h', events: ['row.created'], secret: 'mine' }, 'secret'],
    ])('refuses %s with VALIDATION_ERROR naming the field', async (_what, body, field) => {
      const response = await scene.api.post('/webhooks', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field } } });
    });

    it('needs the webhooks:write scope', async () => {
      const reader = apiClient((await createTestOrg({ scopes: 'webhooks:read' })).key);
      const response = await reader.post('/webhooks', { name: 'a', url: 'https://example.com/h', events: ['row.created'] });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
      expect((await reader.get('/webhooks')).status).toBe(200);
    });

    it('holds at most 100 webhooks per organization, even when creates race: one more is LIMIT_EXCEEDED and creates nothing', async () => {
      const crowded = apiClient((await createTestOrg()).key);
      const create = (n: number) => crowded.post('/webhooks', { name: `Hook ${n}`, url: scene.receiver.url(uniquePath('limit')), events: ['row.created'] });
      const first = await Promise.all(Array.from({ length: 95 }, (_, n) => create(n)));
      expect(first.every((response) => response.status === 201)).toBe(true);
      const racing = await Promise.all(Array.from({ length: 10 }, (_, n) => create(95 + n)));
      expect(racing.filter((response) => response.status === 201)).toHaveLength(5);
      const refused = racing.filter((response) => response.status !== 201);
      expect(refused.map((response) => [response.status, response.body.error.code])).toEqual(Array(5).fill([400, 'LIMIT_EXCEEDED']));
      expect((await crowded.get('/webhooks?limit=1')).body.pagination.total).toBe(100);
      // Another organization is not counted against it.
      expect((await scene.api.post('/webhooks', { name: 'Elsewhere', url: scene.receiver.url(uniquePath('limit')), events: ['row.created'] })).status).toBe(201);
      expect((await crowded.delete(`/webhooks/${first[0].body.data.id}`)).status).toBe(200);
      expect((await create(200)).status).toBe(201);
    });
  });

  describe('GET /webhooks', () => {
    it('lists the organization’s webhooks, paginated, without secrets', async () => {
      const fresh = apiClient((await createTestOrg()).key);
      const first = await createWebhook(fresh, scene.receiver.url(uniquePath('list')), ['row.created'], 'first');
      const second = await createWebhook(fresh, scene.receiver.url(uniquePath('list')), ['table.deleted'], 'second');
      const page = await fresh.get('/webhooks?page=1&limit=1');
      expect(page.status).toBe(200);
      expect(page.body.pagination).toEqual({ page: 1, limit: 1, total: 2 });
      expect(page.body.data).toEqual([
        {
          id: first.id,
          name: 'first',
          url: first.url,
          events: ['row.created'],
          table_ids: null,
          filter: null, watch_fields: null, filter_error: null, rate_limit: null,
          active: true,
          status: 'active',
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ]);
      const next = await fresh.get('/webhooks?page=2&limit=1');
      expect(next.body.data.map((w: { id: string }) => w.id)).toEqual([second.id]);
      expect(JSON.stringify(next.body)).not.toContain('whsec_');
    });

    it.each(['page=0', 'limit=0', 'limit=101', 'page=abc', 'limit=1.5', 'page=99999999999999999999'])('refuses %s', async (query) => {
      const response = await scene.api.get(`/webhooks?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('shows nothing of another organization', async () => {
      const mine = await createWebhook(scene.api, scene.receiver.url(uniquePath('mine')), ['row.created']);
      const theirs = await scene.other.get('/webhooks?limit=100');
      expect(theirs.body.data.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    });
  });

  describe('PATCH /webhooks/{id}', () => {
    it('changes name, url, events and active, and answers the contract fields', async () => {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('patch')), ['row.created']);
      const url = scene.receiver.url(uniquePath('patched'));
      const response = await scene.api.patch(`/webhooks/${hook.id}`, { name: 'Renamed', url, events: ['row.deleted', 'table.created'], active: false });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: { id: hook.id, name: 'Renamed', url, events: ['row.deleted', 'table.created'], table_ids: null, filter: null, watch_fields: null, filter_error: null, rate_limit: null, active: false, status: 'disabled', updated_at: expect.stringMatching(ISO) },
      });
      const enabled = await scene.api.patch(`/webhooks/${hook.id}`, { active: true });
      expect(enabled.body.data).toMatchObject({ name: 'Renamed', active: true, status: 'active' });
    });

    it.each([
      [{ name: null }, 'name'],
      [{ url: 'not a url' }, 'url'],
      [{ events: [] }, 'events'],
      [{ events: ['nope'] }, 'events'],
      [{ active: 'yes' }, 'active'],
      [{ is_active: true }, 'is_active'],
    ])('refuses %j naming the field, and changes nothing', async (body, field) => {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('bad-patch')), ['row.created'], 'unchanged');
      const response = await scene.api.patch(`/webhooks/${hook.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      const listed = (await scene.api.get('/webhooks?limit=100')).body.data.find((w: { id: string }) => w.id === hook.id);
      expect(listed).toMatchObject({ name: 'unchanged', url: hook.url, events: ['row.created'], active: true });
    });

    it('answers 404 for an unknown id, a non-UUID id and another organization’s webhook, which stays unchanged', async () => {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('foreign')), ['row.created'], 'theirs');
      for (const [client, id] of [
        [scene.api, randomUUID()],
        [scene.api, 'not-a-uuid'],
        [scene.other, hook.id],
      ] as const) {
        const response = await client.patch(`/webhooks/${id}`, { name: 'hijacked' });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
      expect((await scene.other.delete(`/webhooks/${hook.id}`)).status).toBe(404);
      expect((await scene.other.get(`/webhooks/${hook.id}/deliveries`)).status).toBe(404);
      expect((await scene.other.post(`/webhooks/${hook.id}/test`)).status).toBe(404);
      const listed = (await scene.api.get('/webhooks?limit=100')).body.data.find((w: { id: string }) => w.id === hook.id);
      expect(listed.name).toBe('theirs');
    });
  });

  describe('DELETE /webhooks/{id}', () => {
    it('deletes for good and answers a message', async () => {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('delete')), ['row.created']);
      const response = await scene.api.delete(`/webhooks/${hook.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: expect.any(String) });
      expect((await scene.api.delete(`/webhooks/${hook.id}`)).status).toBe(404);
      expect((await scene.api.get(`/webhooks/${hook.id}/deliveries`)).status).toBe(404);
    });
  });

  describe('POST /webhooks/{id}/test', () => {
    it('sends a signed webhook.test now against a 200 and records it', async () => {
      const path = uniquePath('test-200');
      scene.receiver.on(path, () => ({ status: 200, body: 'pong from receiver' }));
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      const response = await scene.api.post(`/webhooks/${hook.id}/test`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: { status_code: 200, duration_ms: expect.any(Number), response_body: 'pong from receiver' } });
      const [hit] = scene.receiver.at(path);
      const payload = JSON.parse(hit.body.toString('utf8'));
      expect(payload).toEqual({
        id: expect.stringMatching(UUID),
        event: 'webhook.test',
        timestamp: expect.stringMatching(ISO),
        organization_id: expect.stringMatching(UUID),
        data: { webhook_id: hook.id, test: true },
      });
      expect(verifyWebhookSignature(hook.secret, hit.body, hit.headers['x-webhook-signature'])).toBe(true);
      expect(hit.headers).toMatchObject({ 'x-webhook-event': 'webhook.test', 'x-webhook-id': payload.id, 'content-type': 'application/json' });
      const [delivery] = await deliveriesOf(scene.api, hook.id);
      expect(delivery).toEqual({
        id: hit.headers['x-webhook-delivery'],
        event_id: payload.id,
        event_type: 'webhook.test',
        attempt: 1,
        status_code: 200,
        duration_ms: expect.any(Number),
        success: true,
        response_body: 'pong from receiver',
        next_retry_at: null,
        created_at: expect.stringMatching(ISO),
      });
    });

    it('answers what a 500 said, records the failure and never retries it', async () => {
      const path = uniquePath('test-500');
      scene.receiver.on(path, () => ({ status: 500, body: 'x'.repeat(10_000) }));
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      const response = await scene.api.post(`/webhooks/${hook.id}/test`, { event_type: 'row.created' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        status_code: 500,
        duration_ms: expect.any(Number),
        response_body: 'x'.repeat(4096),
        error_message: expect.stringContaining('500'),
      });
      expect(JSON.parse(scene.receiver.at(path)[0].body.toString()).data).toEqual({ webhook_id: hook.id, test: true, event_type: 'row.created' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(scene.receiver.at(path)).toHaveLength(1);
      const deliveries = await deliveriesOf(scene.api, hook.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event_type: 'webhook.test', attempt: 1, status_code: 500, success: false, error_message: expect.any(String) });
    });

    it('answers status 0 with an error for an unreachable port', async () => {
      const port = await freePort();
      const hook = await createWebhook(scene.api, `http://127.0.0.1:${port}/nobody`, ['row.created']);
      const response = await scene.api.post(`/webhooks/${hook.id}/test`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ status_code: 0, duration_ms: expect.any(Number), response_body: '', error_message: expect.stringMatching(/ECONNREFUSED/) });
      const [delivery] = await deliveriesOf(scene.api, hook.id);
      expect(delivery).toMatchObject({ status_code: 0, success: false, attempt: 1, error_message: expect.stringMatching(/ECONNREFUSED/) });
    });

    it('refuses an unknown event_type or property', async () => {
      const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('test-bad')), ['row.created']);
      for (const [body, field] of [
        [{ event_type: 'nope' }, 'event_type'],
        [{ other: 1 }, 'other'],
      ] as const) {
        const response = await scene.api.post(`/webhooks/${hook.id}/test`, body);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      }
    });
  });

  describe('GET /webhooks/{id}/deliveries', () => {
    it('pages newest first', async () => {
      const path = uniquePath('pages');
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      for (let i = 0; i < 3; i += 1) await scene.api.post(`/webhooks/${hook.id}/test`);
      const ids = scene.receiver.at(path).map((hit) => hit.headers['x-webhook-delivery']);
      const all = await scene.api.get(`/webhooks/${hook.id}/deliveries`);
      expect(all.body.pagination).toEqual({ page: 1, limit: 50, total: 3 });
      expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
      const second = await scene.api.get(`/webhooks/${hook.id}/deliveries?page=2&limit=2`);
      expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3 });
      expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
      expect((await scene.api.get(`/webhooks/${hook.id}/deliveries?limit=500`)).status).toBe(400);
    });
  });
});
