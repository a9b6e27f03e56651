import { randomUUID } from 'node:crypto';
import { EVENTS_STREAM } from '@contracts';
import { apiClient, createTestOrg, eventually, Receiver, stackEnv, stackState, startProcess, testDatabaseUrl } from '@platform/testing';
import { connect } from 'nats';
import { Client } from 'pg';
import { DELIVERY_SERIES_TABLE } from '../src/webhooks-schema';
import { EventPublisher } from './event-publisher';
import { sleep, uniquePath } from './webhook-fixtures';

jest.setTimeout(120_000);

async function fannedOut(healthPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  return Number(/^webhook_events_consumed_total\{outcome="fanned_out"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

/**
 * The fan-out holds each organization's webhooks between batches of events; a change of them must still
 * apply to the next event, on every replica. Beside the stack's webhooks process runs a second one with a
 * durable consumer of its own, so that it fans out every event too (the series and the job of an event
 * and a webhook are made once, whichever comes first), holding what it read for ten minutes: only the
 * announcement of a change, made by whichever of the two answered the change, can make it see one.
 */
describe('a change of an organization’s webhooks applies to its next event on every fan-out replica', () => {
  const consumer = `subscription-changes-${process.pid}`;
  /** What the test opened, closed last first when it ends. */
  const opened: Array<() => Promise<unknown>> = [];

  afterAll(async () => {
    for (const close of opened.reverse()) await close();
  });

  it('follows a new filter, a new webhook and a disabled one from the next event on', async () => {
    const org = await createTestOrg();
    const api = apiClient(org.key);
    const receiver = await Receiver.start();
    opened.push(() => receiver.close());
    const events = await EventPublisher.connect();
    opened.push(() => events.close());
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    opened.push(() => db.end());
    opened.push(async () => {
      const nc = await connect({ servers: stackEnv().NATS_URL });
      await (await nc.jetstreamManager()).consumers.delete(EVENTS_STREAM, consumer).catch(() => undefined);
      await nc.close();
    });
    const replica = await startProcess('webhooks', { WEBHOOK_CONSUMER_NAME: consumer, WEBHOOK_SUBSCRIPTIONS_TTL_MS: '600000' });
    opened.push(() => replica.stop());

    const table = (await api.post('/tables', { name: `Changes ${randomUUID().slice(0, 8)}`, fields: [{ name: 'Stage', field_type: 'select', options: { values: ['open', 'won'] } }] }))
      .body.data;
    let published = 0;
    const publish = async (...stages: string[]) => {
      published += stages.length;
      const sent = [];
      for (const stage of stages) sent.push(await events.publish(org.orgId, 'row.created', { table_id: table.id, table_name: table.name, row_id: randomUUID(), row_data: { stage } }));
      return sent.map((event) => event.id);
    };
    const seriesOf = async (webhookId: string) =>
      (await db.query<{ event_id: string }>(`SELECT event_id FROM ${DELIVERY_SERIES_TABLE} WHERE webhook_id = $1`, [webhookId])).rows.map((row) => row.event_id).sort();
    const fanOuts = [stackState().healthPorts.webhooks, replica.healthPort];
    const before = await Promise.all(fanOuts.map(fannedOut));
    /** Both fan-outs took every event published so far (and perhaps others'), and a moment more has passed for the slower one's series. */
    const settled = async () => {
      await eventually(async () => {
        const now = await Promise.all(fanOuts.map(fannedOut));
        for (const [i, count] of now.entries()) expect(count - before[i]).toBeGreaterThanOrEqual(published);
      });
      await sleep(500);
    };
    const hook = async (label: string, extra: Record<string, unknown>) => {
      const response = await api.post('/webhooks', { name: label, url: receiver.url(uniquePath(label)), events: ['row.created'], table_ids: [table.id], ...extra });
      expect(response.status).toBe(201);
      return response.body.data.id as string;
    };

    const aimed = await hook('aimed', { filter: { stage: 'won' } });
    // Both replicas read the organization's webhooks now, and hold them.
    const [wonBefore] = await publish('won', 'open');
    await settled();
    expect(await seriesOf(aimed)).toEqual([wonBefore]);

    expect((await api.patch(`/webhooks/${aimed}`, { filter: { stage: 'open' } })).status).toBe(200);
    const [, openAfter, , openAgain] = await publish('won', 'open', 'won', 'open');
    // Fanned out before the next webhook exists: on a loaded machine a fan-out still behind would give them to it.
    await settled();
    const other = await hook('other', {});
    const toOther = await publish('won', 'open');
    await settled();
    expect(await seriesOf(aimed)).toEqual([wonBefore, openAfter, openAgain, toOther[1]].sort());
    expect(await seriesOf(other)).toEqual([...toOther].sort());

    expect((await api.patch(`/webhooks/${other}`, { active: false })).status).toBe(200);
    const [openLast] = await publish('open', 'won');
    await settled();
    expect(await seriesOf(other)).toEqual([...toOther].sort());
    expect(await seriesOf(aimed)).toEqual([wonBefore, openAfter, openAgain, toOther[1], openLast].sort());
  });
});
