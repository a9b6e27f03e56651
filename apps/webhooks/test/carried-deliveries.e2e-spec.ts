import { eventually } from '@platform/testing';
import { DELIVERIES_PER_JOB_AT_LEAST } from '../src/delivery/delivery-job';
import { createWebhook, deliveriesOf, uniquePath, webhookScene } from './webhook-fixtures';

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

/** The stack's fan-out and workers run with the default WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK. */
const SLOTS = 10;
/** More rows than the webhook's slots: dealt over JOBS jobs, each carrying three or four. */
const ROWS = 25;
const JOBS = Math.min(SLOTS, Math.ceil(ROWS / DELIVERIES_PER_JOB_AT_LEAST));

/** The event id a request carried. */
const eventOf = (hit: { headers: Record<string, unknown> }) => hit.headers['x-webhook-id'] as string;

describe('deliveries of a batch, carried by its jobs', () => {
  const scene = webhookScene();

  it("beyond the webhook's slots, are dealt over its jobs in turn, each job's in order, each recorded as its own attempt; one that fails goes on alone and is retried once", async () => {
    const table = (await scene.api.post('/tables', { name: `Carried ${Date.now()}`, fields: [{ name: 'N', field_type: 'number' }] })).body.data;
    const path = uniquePath('carried');
    // The second and the fourth request fail: two of the batch's first attempts.
    scene.receiver.on(path, (_request, count) => (count === 2 || count === 4 ? { status: 500 } : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const created = await scene.api.post(`/tables/${table.id}/rows/batch`, { rows: Array.from({ length: ROWS }, (_, n) => ({ data: { n } })) });
    expect(created.status).toBe(201);
    const rows: string[] = created.body.data.map((row: { id: string }) => row.id);

    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(ROWS + 2), { timeoutMs: 60_000 });
    const hits = scene.receiver.at(path);
    const events = hits.map(eventOf);
    expect(new Set(events).size).toBe(ROWS);
    // The first attempts, by row: the rows a job carries (the n-th, the n+JOBS-th, ...) arrived in the batch's order.
    const firstArrival = new Map<string, number>();
    hits.forEach((hit, i) => {
      const row = JSON.parse(hit.body.toString()).data.row_id as string;
      if (!firstArrival.has(row)) firstArrival.set(row, i);
    });
    for (let job = 0; job < JOBS; job += 1) {
      const carried = rows.filter((_, n) => n % JOBS === job).map((row) => firstArrival.get(row) as number);
      expect(carried).toEqual([...carried].sort((a, b) => a - b));
    }
    // The two that failed came again, and nothing came twice besides them.
    const twice = events.filter((event, i) => events.indexOf(event) !== i);
    expect(twice.sort()).toEqual([events[1], events[3]].sort());

    const records = await eventually(async () => {
      const all = await deliveriesOf(scene.api, hook.id);
      expect(all).toHaveLength(ROWS + 2);
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
