import { apiClient, ApiClient, createTestOrg, eventually, Receiver } from '@platform/testing';
import { createWebhook, deliveriesOf, uniquePath } from './webhook-fixtures';

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

/** The event id a request carried. */
const eventOf = (hit: { headers: Record<string, unknown> }) => hit.headers['x-webhook-id'] as string;

describe('deliveries of a batch, carried by one job', () => {
  let api: ApiClient;
  let receiver: Receiver;

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('are sent in the order of the batch, each recorded as its own attempt; one that fails goes on alone and is retried once', async () => {
    const table = (await api.post('/tables', { name: `Carried ${Date.now()}`, fields: [{ name: 'N', field_type: 'number' }] })).body.data;
    const path = uniquePath('carried');
    // The second and the fourth request fail: two of the batch's first attempts.
    receiver.on(path, (_request, count) => (count === 2 || count === 4 ? { status: 500 } : { status: 200 }));
    const hook = await createWebhook(api, receiver.url(path), ['row.created']);
    const created = await api.post(`/tables/${table.id}/rows/batch`, { rows: [1, 2, 3, 4, 5].map((n) => ({ data: { n } })) });
    expect(created.status).toBe(201);

    await eventually(() => expect(receiver.at(path)).toHaveLength(7), { timeoutMs: 60_000 });
    const hits = receiver.at(path);
    const first = hits.slice(0, 5).map((hit) => JSON.parse(hit.body.toString()).data.row_id);
    expect(first).toEqual(created.body.data.map((row: { id: string }) => row.id));
    // The two that failed came again, after the others, and nothing came twice besides them.
    const events = hits.map(eventOf);
    expect(hits.slice(5).map(eventOf).sort()).toEqual([events[1], events[3]].sort());
    expect(new Set(events).size).toBe(5);

    const records = await eventually(async () => {
      const all = await deliveriesOf(api, hook.id);
      expect(all).toHaveLength(7);
      return all;
    });
    const byEvent = new Map<string, Array<{ attempt: number; success: boolean }>>();
    for (const record of records) byEvent.set(record.event_id, [...(byEvent.get(record.event_id) ?? []), { attempt: record.attempt, success: record.success }]);
    for (const [event, attempts] of byEvent) {
      const failedFirst = event === events[1] || event === events[3];
      expect(attempts.sort((a, b) => a.attempt - b.attempt)).toEqual(failedFirst ? [{ attempt: 1, success: false }, { attempt: 2, success: true }] : [{ attempt: 1, success: true }]);
    }
  });
});
