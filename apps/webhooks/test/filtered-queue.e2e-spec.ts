import { randomUUID } from 'node:crypto';
import { ApiClient, apiClient, createTestOrg, eventually, Receiver, stackEnv, testDatabaseUrl } from '@platform/testing';
import { QueueEvents } from 'bullmq';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { DELIVERY_SERIES_TABLE } from '../src/webhooks-schema';
import { sleep, uniquePath } from './webhook-fixtures';

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

describe('an event a webhook filters out never reaches the delivery queue', () => {
  let api: ApiClient;
  let receiver: Receiver;
  let db: Client;
  let redis: IORedis;
  let queueEvents: QueueEvents;
  /** The id of every job added to the stack's delivery queue while the spec runs (a job's id is its first delivery series'). */
  const added = new Set<string>();

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    receiver = await Receiver.start();
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    redis = new IORedis(stackEnv().REDIS_URL, { maxRetriesPerRequest: null });
    queueEvents = new QueueEvents(stackEnv().WEBHOOK_QUEUE ?? 'webhook-deliveries', { connection: redis });
    queueEvents.on('added', ({ jobId }) => added.add(jobId));
    await queueEvents.waitUntilReady();
  });

  afterAll(async () => {
    await queueEvents.close();
    redis.disconnect();
    await db.end();
    await receiver.close();
  });

  it('queues jobs for the twin without a filter and none, nor a series, for the filtered webhook', async () => {
    const table = (await api.post('/tables', { name: `Queue ${randomUUID().slice(0, 8)}`, fields: [{ name: 'Stage', field_type: 'select', options: { values: ['open', 'won'] } }] }))
      .body.data;
    const hook = async (path: string, extra: Record<string, unknown>) => {
      const response = await api.post('/webhooks', { name: path, url: receiver.url(path), events: ['row.created'], table_ids: [table.id], ...extra });
      expect(response.status).toBe(201);
      return response.body.data.id as string;
    };
    const twinPath = uniquePath('twin');
    const twin = await hook(twinPath, {});
    const filtered = await hook(uniquePath('filtered'), { filter: { stage: 'won' } });

    const rows = Array.from({ length: 20 }, () => ({ data: { stage: 'open' } }));
    expect((await api.post(`/tables/${table.id}/rows/batch`, { rows })).status).toBe(201);
    await eventually(() => expect(receiver.at(twinPath)).toHaveLength(rows.length), { timeoutMs: 30_000 });
    // QueueEvents reads the queue's event stream a moment behind.
    await sleep(1_000);

    const series = async (webhookId: string) =>
      (await db.query<{ id: string }>(`SELECT id FROM ${DELIVERY_SERIES_TABLE} WHERE webhook_id = $1`, [webhookId])).rows.map((row) => row.id);
    const twinSeries = await series(twin);
    expect(twinSeries).toHaveLength(rows.length);
    // The batch's series of one webhook go to the queue together: the jobs are named after the first of theirs.
    const twinJobs = twinSeries.filter((id) => added.has(id));
    expect(twinJobs.length).toBeGreaterThan(0);
    expect(twinJobs.length).toBeLessThan(rows.length);
    expect(await series(filtered)).toEqual([]);
    const { rows: queuedFor } = await db.query<{ webhook_id: string }>(`SELECT DISTINCT webhook_id FROM ${DELIVERY_SERIES_TABLE} WHERE id = ANY($1::uuid[])`, [
      [...added].filter((id) => /^[0-9a-f-]{36}$/.test(id)),
    ]);
    expect(queuedFor.map((row) => row.webhook_id)).not.toContain(filtered);
  });
});
