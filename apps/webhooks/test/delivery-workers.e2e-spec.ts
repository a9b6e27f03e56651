import { randomUUID } from 'node:crypto';
import type { ManagedProcess } from '@platform/runner';
import { eventually, startProcess, testDatabaseUrl } from '@platform/testing';
import { Client } from 'pg';
import { deliveryJob } from '../src/delivery/delivery-job';
import { ARecordDns } from './a-record-dns';
import { DeliveryQueueClient } from './delivery-queue-client';
import { EventPublisher } from './event-publisher';
import { createWebhook, deliveriesOf, sleep, uniquePath, webhookScene } from './webhook-fixtures';

describe('delivery workers', () => {
  const scene = webhookScene();
  const started: ManagedProcess[] = [];
  const worker = async (env: Record<string, string>) => {
    const process = await startProcess('webhooks-worker', env);
    started.push(process);
    return process;
  };

  /** Kills `doomed` with SIGKILL, lets the receiver answer again, starts another worker like it, and waits until each event is delivered. */
  const replaceWorker = async (doomed: ManagedProcess, env: Record<string, string>, answerAgain: () => void, webhookId: string, eventIds: string[]) => {
    doomed.kill('SIGKILL');
    await sleep(200);
    answerAgain();
    scene.receiver.release(200);
    await worker(env);
    await eventually(
      async () => {
        const succeeded = (await deliveriesOf(scene.api, webhookId, '?limit=100')).filter((d) => d.success).map((d) => d.event_id);
        expect(new Set(succeeded)).toEqual(new Set(eventIds));
      },
      { timeoutMs: 20_000 },
    );
  };

  afterAll(async () => {
    await Promise.all(started.map((process) => process.stop()));
  });

  it('loses no event when a worker is killed with SIGKILL mid-delivery', async () => {
    const queue = new DeliveryQueueClient();
    try {
      const path = uniquePath('sigkill');
      let hang = true;
      scene.receiver.on(path, () => (hang ? 'hang' : { status: 200 }));
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      // A lock of 2 s renewed every second: a worker the test machine starves for a moment keeps its jobs, so each is sent once before the kill.
      const env = { WEBHOOK_QUEUE: queue.name, WEBHOOK_JOB_LOCK_MS: '2000', WEBHOOK_STALLED_CHECK_MS: '500' };
      const doomed = await worker(env);
      const sent = await Promise.all(Array.from({ length: 10 }, () => queue.deliver(scene.orgId, hook.id, 'row.created')));
      await eventually(() => expect(scene.receiver.at(path)).toHaveLength(10));
      await replaceWorker(doomed, env, () => (hang = false), hook.id, sent.map((event) => event.id));
      const attemptsPerEvent = sent.map((event) => scene.receiver.at(path).filter((hit) => hit.headers['x-webhook-id'] === event.id).length);
      expect(attemptsPerEvent.every((count) => count === 2)).toBe(true);
    } finally {
      await queue.close();
    }
  });

  it('sends again only what a job carrying several deliveries still owed when its worker was killed with SIGKILL', async () => {
    const queue = new DeliveryQueueClient();
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const path = uniquePath('carried-sigkill');
      // The first delivery is answered, the second hangs until the worker is dead, the third is never reached.
      let hang = true;
      scene.receiver.on(path, (_request, count) => (count === 2 && hang ? 'hang' : { status: 200 }));
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      // Three stored events with their series, as the fan-out leaves them, carried by one job.
      const events = [1, 2, 3].map((n) => ({ id: randomUUID(), n }));
      await db.query(`INSERT INTO webhooks.events (id, organization_id, event_type, body) SELECT id, $2, 'row.created', '{}' FROM unnest($1::uuid[]) AS id`, [events.map((e) => e.id), scene.orgId]);
      await db.query(`INSERT INTO webhooks.delivery_series (id, webhook_id, event_id, trigger) SELECT id, $2, id, 'event' FROM unnest($1::uuid[]) AS id`, [events.map((e) => e.id), hook.id]);
      const [own, ...more] = events.map((event) => ({ seriesId: event.id, eventId: event.id, eventType: 'row.created', body: JSON.stringify({ id: event.id, data: { n: event.n } }) }));
      const job = deliveryJob({ ...own, organizationId: scene.orgId, webhookId: hook.id, more });
      await queue.queue.add(job.name, job.data, job.opts);

      const env = { WEBHOOK_QUEUE: queue.name, WEBHOOK_JOB_LOCK_MS: '1000', WEBHOOK_STALLED_CHECK_MS: '500' };
      const doomed = await worker(env);
      await eventually(() => expect(scene.receiver.at(path)).toHaveLength(2));
      // The first attempt is recorded (its series finished) before the worker dies.
      await eventually(async () => expect((await deliveriesOf(scene.api, hook.id)).map((d) => d.event_id)).toEqual([events[0].id]));
      await replaceWorker(doomed, env, () => (hang = false), hook.id, events.map((event) => event.id));
      const requests = events.map((event) => scene.receiver.at(path).filter((hit) => hit.headers['x-webhook-id'] === event.id).length);
      // The first went once; the second twice (the attempt cut short, then again); the third once.
      expect(requests).toEqual([1, 2, 1]);
    } finally {
      await queue.close();
      await db.end();
    }
  });

  it('sends a job queued for a series opened before only if the series is still owed, even on its first run', async () => {
    const queue = new DeliveryQueueClient();
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const path = uniquePath('recheck');
      const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
      // Two stored events whose series a fan-out opened; another job has finished the first one meanwhile.
      const [finished, owed] = [randomUUID(), randomUUID()];
      await db.query(`INSERT INTO webhooks.events (id, organization_id, event_type, body) SELECT id, $2, 'row.created', '{}' FROM unnest($1::uuid[]) AS id`, [[finished, owed], scene.orgId]);
      await db.query(`INSERT INTO webhooks.delivery_series (id, webhook_id, event_id, trigger, finished_at) VALUES ($1, $3, $1, 'event', now()), ($2, $3, $2, 'event', NULL)`, [
        finished,
        owed,
        hook.id,
      ]);
      // Handed over again to a second fan-out, each gets a job of its own, as if no job had it any more.
      for (const id of [finished, owed]) {
        const job = deliveryJob({ seriesId: id, eventId: id, eventType: 'row.created', body: JSON.stringify({ id }), organizationId: scene.orgId, webhookId: hook.id, recheck: true });
        await queue.queue.add(job.name, job.data, job.opts);
      }
      await worker({ WEBHOOK_QUEUE: queue.name });
      await eventually(() => expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id'])).toEqual([owed]));
      await eventually(async () => expect(await queue.queue.getJobCounts()).toEqual(expect.objectContaining({ active: 0, waiting: 0, delayed: 0 })));
      expect(scene.receiver.at(path).map((hit) => hit.headers['x-webhook-id'])).toEqual([owed]);
    } finally {
      await queue.close();
      await db.end();
    }
  });

  it('leaves nothing in Redis of a delivery once it is finished, delivered or given up', async () => {
    const queue = new DeliveryQueueClient();
    try {
      await worker({ WEBHOOK_QUEUE: queue.name, WEBHOOK_RETRY_DELAYS: '20ms,20ms,20ms,20ms,20ms' });
      const good = uniquePath('finished-ok');
      const bad = uniquePath('finished-failing');
      scene.receiver.on(bad, () => ({ status: 500 }));
      const delivered = await createWebhook(scene.api, scene.receiver.url(good), ['row.created']);
      const refused = await createWebhook(scene.api, scene.receiver.url(bad), ['row.created']);
      const sent = await Promise.all([
        ...Array.from({ length: 10 }, () => queue.deliver(scene.orgId, delivered.id, 'row.created')),
        ...Array.from({ length: 2 }, () => queue.deliver(scene.orgId, refused.id, 'row.created')),
      ]);
      await eventually(
        async () => {
          expect(scene.receiver.at(good)).toHaveLength(10);
          // Six attempts each, the last one given up.
          expect(scene.receiver.at(bad)).toHaveLength(12);
          expect(await queue.queue.getJobCounts()).toEqual(expect.objectContaining({ active: 0, waiting: 0, delayed: 0, completed: 0, failed: 0 }));
        },
        { timeoutMs: 20_000 },
      );
      const ids = [delivered.id, refused.id, ...sent.map((event) => event.id)];
      const keys = await queue.keys();
      expect(keys.filter((key) => ids.some((id) => key.includes(id)))).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('refuses blocked targets again at delivery time when private targets are not allowed', async () => {
    const dns = await ARecordDns.start({ 'internal.example.test': { a: ['127.0.0.1'] }, 'v6.example.test': { aaaa: ['::1'] } });
    const queue = new DeliveryQueueClient();
    try {
      await worker({ WEBHOOK_QUEUE: queue.name, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_DNS_SERVERS: dns.servers, WEBHOOK_RETRY_DELAYS: '5m' });
      const path = uniquePath('blocked');
      const targets = [
        [scene.receiver.url(path), /127\.0\.0\.1 is a loopback address/],
        [scene.receiver.url(path, 'internal.example.test'), /^Target refused: internal\.example\.test is not an allowed target: webhooks reach only host names that resolve to public addresses$/],
        [scene.receiver.url(path, 'v6.example.test'), /^Target refused: v6\.example\.test is not an allowed target: webhooks reach only host names that resolve to public addresses$/],
        [scene.receiver.url(path, '[::ffff:127.0.0.1]'), /loopback address/],
        ['http://169.254.169.254/latest/meta-data', /linkLocal address/],
        ['http://10.0.0.1/', /private address/],
      ] as const;
      const hooks = await Promise.all(targets.map(([url]) => createWebhook(scene.api, url, ['row.deleted'])));
      await Promise.all(hooks.map((hook) => queue.deliver(scene.orgId, hook.id, 'row.deleted')));
      for (const [i, hook] of hooks.entries()) {
        const [delivery] = await eventually(async () => {
          const list = await deliveriesOf(scene.api, hook.id);
          expect(list).toHaveLength(1);
          return list;
        });
        expect(delivery).toMatchObject({ attempt: 1, status_code: 0, success: false });
        expect(delivery.error_message).toMatch(/^Target refused: /);
        expect(delivery.error_message).toMatch(targets[i][1]);
      }
      expect(scene.receiver.at(path)).toHaveLength(0);
    } finally {
      await queue.close();
      dns.close();
    }
  });

  it('delivers each event once with several consumers and several workers at once', async () => {
    started.push(await startProcess('webhooks'));
    await worker({});
    const events = await EventPublisher.connect();
    try {
      const path = uniquePath('many');
      await createWebhook(scene.api, scene.receiver.url(path), ['table.updated']);
      const other = uniquePath('many-other');
      await createWebhook(scene.api, scene.receiver.url(other), ['table.updated']);
      const published = await Promise.all(Array.from({ length: 60 }, () => events.publish(scene.orgId, 'table.updated')));
      // As long as a replaced worker's deliveries above: a machine busy with other work may take a while.
      await eventually(
        () => {
          expect(scene.receiver.at(path)).toHaveLength(60);
          expect(scene.receiver.at(other)).toHaveLength(60);
        },
        { timeoutMs: 20_000 },
      );
      await sleep(1_500);
      for (const hits of [scene.receiver.at(path), scene.receiver.at(other)]) {
        expect(hits).toHaveLength(60);
        expect(new Set(hits.map((hit) => hit.headers['x-webhook-id']))).toEqual(new Set(published.map((event) => event.id)));
      }
    } finally {
      await events.close();
    }
  });
});
