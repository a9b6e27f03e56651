import { randomUUID } from 'node:crypto';
import { ApiClient, eventually } from '@platform/testing';
import { sleep, statusOf, uniquePath, webhookScene } from './webhook-fixtures';

const QUIET_MS = 1_500;

// The test stack retries after 200 ms, 400 ms, 600 ms, 800 ms and 1 s: a webhook fails within seconds.
jest.setTimeout(120_000);

interface Payload {
  id: string;
  event: string;
  data: { webhook_id?: string; name?: string; url?: string; status?: string; last_error?: string | null; row_id?: string };
}

describe('operational events: webhook.failed and webhook.recovered', () => {
  const scene = webhookScene();

  const payloadsAt = (path: string): Payload[] => scene.receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')) as Payload);

  async function createHook(client: ApiClient, path: string, events: string[], name: string): Promise<string> {
    const response = await client.post('/webhooks', { name, url: scene.receiver.url(path), events });
    expect(response.status).toBe(201);
    return response.body.data.id;
  }

  it('tells the other webhooks that subscribe when one fails and when it recovers, never the webhook itself', async () => {
    const table = await scene.api.post('/tables', { name: `Ops ${randomUUID().slice(0, 8)}`, fields: [{ name: 'Title', field_type: 'text' }] });
    expect(table.status).toBe(201);
    const flaky = uniquePath('flaky');
    const watcher = uniquePath('watcher');
    const unsubscribed = uniquePath('unsubscribed');
    const foreign = uniquePath('foreign');
    let healthy = false;
    scene.receiver.on(flaky, () => (healthy ? { status: 200 } : { status: 503, body: 'down for maintenance' }));
    // The failing webhook subscribes to the operational events too: it must never get its own.
    const flakyId = await createHook(scene.api, flaky, ['row.created', 'webhook.failed', 'webhook.recovered'], 'Flaky');
    const watcherId = await createHook(scene.api, watcher, ['webhook.failed', 'webhook.recovered'], 'Watcher');
    await createHook(scene.api, unsubscribed, ['row.created'], 'Rows only');
    await createHook(scene.other, foreign, ['webhook.failed', 'webhook.recovered'], 'Another organization');

    expect((await scene.api.post(`/tables/${table.body.data.id}/rows`, { data: { title: 'first' } })).status).toBe(201);
    await eventually(async () => expect(await statusOf(scene.api, flakyId)).toBe('failed'), { timeoutMs: 30_000 });
    await eventually(() => expect(payloadsAt(watcher).map((p) => p.event)).toEqual(['webhook.failed']), { timeoutMs: 20_000 });
    const [failed] = payloadsAt(watcher);
    expect(failed.data).toEqual({ webhook_id: flakyId, name: 'Flaky', url: scene.receiver.url(flaky), status: 'failed', last_error: 'Receiver answered 503' });
    expect(scene.receiver.at(watcher)[0].headers['webhook-id']).toBe(failed.id);

    healthy = true;
    expect((await scene.api.post(`/tables/${table.body.data.id}/rows`, { data: { title: 'second' } })).status).toBe(201);
    await eventually(async () => expect(await statusOf(scene.api, flakyId)).toBe('active'), { timeoutMs: 20_000 });
    await eventually(() => expect(payloadsAt(watcher).map((p) => p.event)).toEqual(['webhook.failed', 'webhook.recovered']), { timeoutMs: 20_000 });
    expect(payloadsAt(watcher)[1].data).toEqual({ webhook_id: flakyId, name: 'Flaky', url: scene.receiver.url(flaky), status: 'active', last_error: null });

    await sleep(QUIET_MS);
    expect(payloadsAt(flaky).every((p) => p.event === 'row.created')).toBe(true);
    expect(payloadsAt(unsubscribed).every((p) => p.event === 'row.created')).toBe(true);
    expect(payloadsAt(foreign)).toHaveLength(0);
    expect(payloadsAt(watcher)).toHaveLength(2);
    // Recorded like any delivery of the watcher.
    const deliveries = (await scene.api.get(`/webhooks/${watcherId}/deliveries?event_type=webhook.failed`)).body.data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event_id: failed.id, success: true });
  });
});
