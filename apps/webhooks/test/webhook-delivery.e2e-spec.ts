import { randomUUID } from 'node:crypto';
import { verifyWebhookSignature } from '@contracts';
import { admin, createTestOrg, eventually, stackEnv, testDatabaseUrl } from '@platform/testing';
import { Client } from 'pg';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Webhook } from 'standardwebhooks';
import type { DeliveryJob } from '../src/delivery/delivery-job';
import { WEBHOOK_READ_FRESH_MS } from '../src/delivery/delivery-webhooks';
import { createWebhook, deliveriesOf, sleep, statusOf, uniquePath, webhookScene } from './webhook-fixtures';

/** The stack runs with WEBHOOK_RETRY_DELAYS=200ms,400ms,600ms,800ms,1s. */
const DELAYS = [200, 400, 600, 800, 1_000];
const QUIET_MS = 1_500;
/** The stack's workers run with the default WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK. */
const STACK_IN_FLIGHT_CAP = 10;

describe('webhook delivery through the real stack', () => {
  const scene = webhookScene({ publisher: true });

  it('sends to the new URL from the event right after a change, though the worker held the webhook for its last attempt', async () => {
    // The worker holds what it read for an attempt for the next ones (WEBHOOK_READ_FRESH_MS); only the
    // announcement of the change can make the next event meet the new URL this soon.
    const [first, second] = [uniquePath('held-url-a'), uniquePath('held-url-b')];
    const hook = await createWebhook(scene.api, scene.receiver.url(first), ['row.created']);
    const deliverTo = async (path: string) => {
      const started = Date.now();
      const event = await scene.events.publish(scene.orgId, 'row.created');
      await eventually(() => expect(scene.receiver.at(path).some((request) => request.headers['webhook-id'] === event.id)).toBe(true));
      return Date.now() - started;
    };
    await deliverTo(first);
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { url: scene.receiver.url(second) })).status).toBe(200);
    const took = await deliverTo(second);
    expect(scene.receiver.at(first)).toHaveLength(1);
    // Meaningful only while the worker would still go by the webhook it held.
    expect(took).toBeLessThan(WEBHOOK_READ_FRESH_MS);
  });

  it('POSTs the event, signed, with every contract header, once', async () => {
    const path = uniquePath('signed');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const event = await scene.events.publish(scene.orgId, 'row.created', { table_id: randomUUID(), table_name: 'Orders', row_id: randomUUID(), row_data: { total: 12.5, note: 'Zoë ✓' } });
    const [hit] = await eventually(() => {
      expect(scene.receiver.at(path)).toHaveLength(1);
      return scene.receiver.at(path);
    });
    expect(hit.body.toString('utf8')).toBe(JSON.stringify(event));
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(hook.secret, hit.body, hit.headers['x-webhook-signature'])).toBe(true);
    expect(hit.headers['x-webhook-event']).toBe('row.created');
    expect(hit.headers['x-webhook-id']).toBe(event.id);
    expect(hit.headers['x-webhook-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Number(hit.headers['x-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hit.headers['webhook-id']).toBe(event.id);
    expect(hit.headers['webhook-timestamp']).toBe(hit.headers['x-webhook-timestamp']);
    expect(new Webhook(hook.secret).verify(hit.body.toString('utf8'), hit.headers as Record<string, string>)).toEqual(event);
    const deliveries = await eventually(async () => {
      const list = await deliveriesOf(scene.api, hook.id);
      expect(list).toHaveLength(1);
      return list;
    });
    expect(deliveries[0]).toMatchObject({ id: hit.headers['x-webhook-delivery'], event_id: event.id, event_type: 'row.created', attempt: 1, status_code: 200, success: true });
    expect(deliveries[0].error_message).toBeUndefined();
    await sleep(QUIET_MS);
    expect(scene.receiver.at(path)).toHaveLength(1);
  });

  it('sends only the kinds a webhook subscribes to, of its own organization, and an event id only once', async () => {
    const path = uniquePath('kinds');
    await createWebhook(scene.api, scene.receiver.url(path), ['table.created', 'row.deleted']);
    const stranger = await createTestOrg();
    await scene.events.publish(scene.orgId, 'row.created');
    await scene.events.publish(stranger.orgId, 'table.created');
    const wanted = await scene.events.publish(scene.orgId, 'table.created');
    // The same event published again under another message id passes JetStream; its job id still stops it.
    const again = await scene.events.publish(scene.orgId, 'table.created', wanted.data, wanted.id);
    expect(again.id).toBe(wanted.id);
    await scene.events.publishAs(wanted, randomUUID());
    const deleted = await scene.events.publish(scene.orgId, 'row.deleted');
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(2));
    await sleep(QUIET_MS);
    expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id']).sort()).toEqual([wanted.id, deleted.id].sort());
  });

  it('retries on the schedule, 6 attempts in all, then marks the webhook failed; its next 2xx makes it active again', async () => {
    const path = uniquePath('schedule');
    let failing = true;
    scene.receiver.on(path, () => (failing ? { status: 500, body: 'down' } : { status: 204 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.updated']);
    const event = await scene.events.publish(scene.orgId, 'row.updated');
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(6), { timeoutMs: 20_000 });
    const hits = scene.receiver.at(path);
    expect(new Set(hits.map((hit) => hit.headers['x-webhook-id']))).toEqual(new Set([event.id]));
    expect(new Set(hits.map((hit) => hit.headers['x-webhook-delivery'])).size).toBe(6);
    const gaps = hits.slice(1).map((hit, i) => hit.receivedAt - hits[i].receivedAt);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(DELAYS[i] - 20);
      expect(gap).toBeLessThan(DELAYS[i] + 1_500);
    });
    await eventually(async () => expect(await statusOf(scene.api, hook.id)).toBe('failed'));
    const deliveries = await deliveriesOf(scene.api, hook.id);
    expect(deliveries.map((d) => d.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ event_id: event.id, event_type: 'row.updated', status_code: 500, success: false, error_message: expect.stringContaining('500') });
    }
    await sleep(QUIET_MS);
    expect(scene.receiver.at(path)).toHaveLength(6);

    // A failed webhook still gets new events; the first 2xx sets it back to active.
    failing = false;
    const next = await scene.events.publish(scene.orgId, 'row.updated');
    await eventually(() => expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id'])).toContain(next.id));
    await eventually(async () => expect(await statusOf(scene.api, hook.id)).toBe('active'));
    expect((await deliveriesOf(scene.api, hook.id))[0]).toMatchObject({ event_id: next.id, attempt: 1, status_code: 204, success: true });
  });

  it('sends a disabled webhook nothing, not even later', async () => {
    const path = uniquePath('disabled');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { active: false })).body.data.status).toBe('disabled');
    const missed = await scene.events.publish(scene.orgId, 'row.created');
    await sleep(QUIET_MS);
    expect(scene.receiver.at(path)).toHaveLength(0);
    await scene.api.patch(`/webhooks/${hook.id}`, { active: true });
    const seen = await scene.events.publish(scene.orgId, 'row.created');
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(1));
    await sleep(QUIET_MS);
    expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id'])).toEqual([seen.id]);
    expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id'])).not.toContain(missed.id);
  });

  it('stops retrying a webhook that is disabled between attempts', async () => {
    const path = uniquePath('disabled-mid');
    scene.receiver.on(path, () => ({ status: 500 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    await scene.events.publish(scene.orgId, 'row.created');
    await eventually(() => expect(scene.receiver.at(path).length).toBeGreaterThanOrEqual(1));
    await scene.api.patch(`/webhooks/${hook.id}`, { active: false });
    const sent = scene.receiver.at(path).length;
    await sleep(DELAYS.reduce((a, b) => a + b) + QUIET_MS);
    expect(scene.receiver.at(path).length).toBeLessThanOrEqual(sent + 1);
    expect(scene.receiver.at(path).length).toBeLessThan(6);
  });

  it('deletes a webhook with its queued jobs, and sends it nothing more', async () => {
    // Every in-flight slot of the webhook is held by a hanging receiver, so one more event's job waits for a
    // slot, in its worker or parked in the delayed set: the delete meets it there every time.
    const path = uniquePath('deleted');
    let hang = true;
    scene.receiver.on(path, () => (hang ? 'hang' : { status: 503 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const redis = new IORedis(stackEnv().REDIS_URL, { maxRetriesPerRequest: 3 });
    const queue = new Queue<DeliveryJob>(stackEnv().WEBHOOK_QUEUE ?? 'webhook-deliveries', { connection: redis });
    const jobsOfHook = async () => (await queue.getJobs(['active', 'wait', 'delayed', 'prioritized'])).filter((job) => job.data.webhookId === hook.id);
    try {
      // One event at a time, each with a job of its own (events fanned out together share a job, one slot).
      for (let published = 1; published <= STACK_IN_FLIGHT_CAP + 1; published += 1) {
        await scene.events.publish(scene.orgId, 'row.created');
        await eventually(async () => expect((await jobsOfHook()).length).toBeGreaterThanOrEqual(published));
      }
      // Every slot taken: as many requests as slots, more only if a machine slow to publish let the first ones time
      // out (WEBHOOK_TIMEOUT_MS) and go out again meanwhile; the jobs are all still there either way.
      await eventually(async () => {
        expect(scene.receiver.at(path).length).toBeGreaterThanOrEqual(STACK_IN_FLIGHT_CAP);
        expect(await jobsOfHook()).toHaveLength(STACK_IN_FLIGHT_CAP + 1);
      });
      // Older than a job's read of its webhook may be when it takes a slot (WEBHOOK_READ_FRESH_MS): the one
      // waiting in its worker reads the webhook again, and finds it deleted.
      await sleep(WEBHOOK_READ_FRESH_MS);
      expect((await scene.api.delete(`/webhooks/${hook.id}`)).status).toBe(200);
      // Requests that began before the delete took effect. On a loaded machine the first attempts may have
      // timed out (WEBHOOK_TIMEOUT_MS) meanwhile and been retried: an attempt may go out on a read of its
      // webhook up to WEBHOOK_READ_FRESH_MS old, so one that read it just before the delete may still start
      // just after. None may start later than that.
      await sleep(WEBHOOK_READ_FRESH_MS + 250);
      const beforeDelete = scene.receiver.at(path).length;
      expect(beforeDelete).toBeGreaterThanOrEqual(STACK_IN_FLIGHT_CAP);
      hang = false;
      scene.receiver.release(503);
      // Parked jobs leave Redis with the delete; the attempts that hung and the job that waited end without a request.
      await eventually(async () => expect(await jobsOfHook()).toHaveLength(0), { timeoutMs: 10_000 });
      await sleep(DELAYS.reduce((a, b) => a + b) + QUIET_MS);
      expect(scene.receiver.at(path)).toHaveLength(beforeDelete);
      await scene.events.publish(scene.orgId, 'row.created');
      await sleep(QUIET_MS);
      expect(scene.receiver.at(path)).toHaveLength(beforeDelete);
    } finally {
      hang = false;
      scene.receiver.release(503);
      await queue.close();
      redis.disconnect();
    }
  });

  it('deletes a webhook with a backlog at once (no deadlock with the worker), and its series and records go after it', async () => {
    const BACKLOG = 1_500;
    const path = uniquePath('backlog');
    scene.receiver.on(path, () => ({ status: 503 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.updated']);
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      await Promise.all(Array.from({ length: BACKLOG }, () => scene.events.publish(scene.orgId, 'row.updated')));
      const seriesOf = async () => (await db.query('SELECT count(*)::int AS n FROM webhooks.delivery_series WHERE webhook_id = $1', [hook.id])).rows[0].n;
      // The worker is busy failing and retrying the backlog while the delete comes.
      await eventually(async () => {
        expect(await seriesOf()).toBe(BACKLOG);
        expect(scene.receiver.at(path).length).toBeGreaterThan(200);
      }, { timeoutMs: 30_000 });
      const started = Date.now();
      const deleted = await scene.api.delete(`/webhooks/${hook.id}`);
      const tookMs = Date.now() - started;
      expect(deleted.status).toBe(200);
      expect(tookMs).toBeLessThan(1_000);
      expect((await scene.api.get(`/webhooks/${hook.id}`)).status).toBe(404);
      // Attempts in flight at the delete end; after them, nothing more is sent.
      await sleep(QUIET_MS + 2_000);
      const settled = scene.receiver.at(path).length;
      await sleep(QUIET_MS + 2_000);
      expect(scene.receiver.at(path).length).toBe(settled);
      await eventually(async () => {
        expect(await seriesOf()).toBe(0);
        expect((await db.query('SELECT count(*)::int AS n FROM webhooks.deliveries WHERE webhook_id = $1', [hook.id])).rows[0].n).toBe(0);
      }, { timeoutMs: 30_000 });
    } finally {
      await db.end();
    }
  }, 120_000);

  it('delivers member.* events from the admin command line', async () => {
    const path = uniquePath('members');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['member.invited', 'member.joined', 'member.removed']);
    const email = `webhook-${randomUUID().slice(0, 8)}@example.com`;
    const member = await admin('member', 'invite', '--org', scene.orgId, '--email', email, '--role', 'admin');
    await admin('member', 'join', '--member', member.id);
    await admin('member', 'remove', '--member', member.id);
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(3), { timeoutMs: 15_000 });
    const payloads = scene.receiver.at(path).map((hit) => {
      expect(verifyWebhookSignature(hook.secret, hit.body, hit.headers['x-webhook-signature'])).toBe(true);
      return JSON.parse(hit.body.toString('utf8'));
    });
    expect(payloads.map((p) => p.event).sort()).toEqual(['member.invited', 'member.joined', 'member.removed']);
    for (const payload of payloads) {
      expect(payload).toMatchObject({ organization_id: scene.orgId, data: { member_id: member.id, email, role: 'admin' } });
    }
  });

  it('delivers row.created for a row created through the gateway', async () => {
    const path = uniquePath('rows');
    await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const table = await scene.api.post('/tables', { name: `Hooks ${randomUUID().slice(0, 8)}`, fields: [{ name: 'Title', field_type: 'text' }] });
    expect(table.status).toBe(201);
    const row = await scene.api.post(`/tables/${table.body.data.id}/rows`, { data: { title: 'hello' } });
    expect(row.status).toBe(201);
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(1), { timeoutMs: 15_000 });
    expect(JSON.parse(scene.receiver.at(path)[0].body.toString('utf8'))).toMatchObject({
      event: 'row.created',
      organization_id: scene.orgId,
      data: { table_id: table.body.data.id, row_id: row.body.data.id, row_data: { title: 'hello' } },
    });
  });
});
