import 'reflect-metadata';
import { outboxWakeSubject } from '@platform/messaging';
import { eventually, stackEnv } from '@platform/testing';
import { connect, NatsConnection } from 'nats';
import { createTable, newOrg } from './tables-fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The relay does not wait for its next poll (a second apart): the tables service announces each commit
 * into the outbox on a core NATS subject, after the commit, and the relay publishes at once.
 * @run-alone: every spec's commits announce on the same subject, and this one counts what it hears and
 * times the relay.
 */
describe('tables relay wake-up', () => {
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: stackEnv().NATS_URL });
  });

  afterAll(async () => {
    await nc.close();
  });

  it('announces every committed create on the wake subject, and nothing for a refused one', async () => {
    const org = await newOrg();
    const { id: tableId } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    let announced = 0;
    const subscription = nc.subscribe(outboxWakeSubject('tables'), { callback: () => (announced += 1) });
    await nc.flush();
    try {
      const created = await org.api.post(`/tables/${tableId}/rows`, { data: { n: 1 } });
      expect(created.status).toBe(201);
      await eventually(() => expect(announced).toBeGreaterThanOrEqual(1));
      // A write that fails commits nothing and announces nothing.
      await sleep(100);
      announced = 0;
      const refused = await org.api.post(`/tables/${tableId}/rows`, { data: { n: 'not a number' } });
      expect(refused.status).toBe(400);
      await sleep(300);
      expect(announced).toBe(0);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('publishes each create soon after its commit, not at the relay poll a second later', async () => {
    const org = await newOrg();
    const { id: tableId } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    const arrivals = new Map<number, number>();
    // JetStream publishes reach core subscribers of the subject too.
    const subscription = nc.subscribe(`events.${org.orgId}.row.created`, {
      callback: (_error, message) => arrivals.set(message.json<{ data: { row_data: { n: number } } }>().data.row_data.n, performance.now()),
    });
    await nc.flush();
    const latencies: number[] = [];
    try {
      for (let n = 1; n <= 5; n += 1) {
        // Apart by more than a poll, so that each event waits alone for whatever wakes the relay.
        await sleep(1_100);
        const created = await org.api.post(`/tables/${tableId}/rows`, { data: { n } });
        expect(created.status).toBe(201);
        const answeredAt = performance.now();
        await eventually(() => expect(arrivals.has(n)).toBe(true));
        latencies.push(Math.max(0, (arrivals.get(n) as number) - answeredAt));
      }
    } finally {
      subscription.unsubscribe();
    }
    // Polling alone would spread these evenly over 0-1000 ms.
    latencies.sort((a, b) => a - b);
    expect(latencies[2]).toBeLessThan(200);
    expect(latencies[4]).toBeLessThan(500);
  });
});
