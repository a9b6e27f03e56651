import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, Receiver } from '@platform/testing';
import { IsolatedStack, startIsolatedStack } from '@platform/testing/reliability';

const EVENTS = 50;

/**
 * Redis restarted empty (no persistence survived) while every delivery waits for its retry: the event
 * store still owes each series an attempt, and the reconciler queues every one of them again.
 */
describe('Redis lost with deliveries waiting for a retry', () => {
  let stack: IsolatedStack;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startIsolatedStack('redis-loss', { WEBHOOK_RETRY_DELAYS: '5s,5s,5s,5s,5s', WEBHOOK_RECONCILE_INTERVAL_MS: '1000' });
    receiver = await Receiver.start();
  }, 300_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  }, 60_000);

  it('delivers every event after Redis comes back empty, the webhook active, each with a success recorded', async () => {
    const org = await stack.createOrg();
    let down = true;
    receiver.on('/lost', () => (down ? { status: 503 } : { status: 200 }));
    const hook = await org.api.post('/webhooks', { name: 'redis loss', url: receiver.url('/lost'), events: ['row.created'] });
    expect(hook.status).toBe(201);
    const table = await org.api.post('/tables', { name: 'Redis loss', fields: [{ name: 'N', field_type: 'number' }] });
    const rows = await Promise.all(Array.from({ length: EVENTS }, (_, n) => org.api.post(`/tables/${table.body.data.id}/rows`, { data: { n } })));
    expect(rows.map((row) => row.status)).toEqual(Array(EVENTS).fill(201));
    // Every delivery failed once and now waits 5 s in Redis for its retry.
    await eventually(() => expect(new Set(receiver.at('/lost').map((hit) => hit.headers['webhook-id'])).size).toBe(EVENTS), { timeoutMs: 60_000 });

    await stack.redis.stop();
    for (const entry of readdirSync(stack.redis.dataDir)) rmSync(join(stack.redis.dataDir, entry), { recursive: true, force: true });
    await stack.redis.start();
    down = false;

    const delivered = await eventually(
      async () => {
        const succeeded = new Set<string>();
        for (let page = 1; page <= 3; page++) {
          const list = await org.api.get(`/webhooks/${hook.body.data.id}/deliveries?success=true&limit=100&page=${page}`);
          for (const delivery of list.body.data) succeeded.add(delivery.event_id);
        }
        expect(succeeded.size).toBe(EVENTS);
        return succeeded;
      },
      { timeoutMs: 90_000 },
    );
    const sentIds = new Set(receiver.at('/lost').map((hit) => hit.headers['webhook-id'] as string));
    expect(delivered).toEqual(sentIds);
    const webhook = await org.api.get(`/webhooks/${hook.body.data.id}`);
    expect(webhook.body.data.status).toBe('active');
  }, 240_000);
});
