import type { ManagedProcess } from '@platform/runner';
import { apiClient, createTestOrg, eventually, startProcess } from '@platform/testing';
import { DeliveryQueueClient } from './delivery-queue-client';
import { createWebhook, deliveriesOf, sleep, uniquePath, webhookScene } from './webhook-fixtures';

const CAP = 3;

/** Workers of the test's own on a queue of its own, each allowed CAP attempts in flight per webhook. */
// Each case waits on real deliveries, six attempts and admin commands on a shared machine.
jest.setTimeout(180_000);

describe('fair delivery: a per-webhook in-flight cap shared by every worker', () => {
  const scene = webhookScene();
  const started: ManagedProcess[] = [];
  const queues: DeliveryQueueClient[] = [];

  const workers = async (queue: DeliveryQueueClient, count: number, env: Record<string, string> = {}) => {
    const processes = await Promise.all(
      Array.from({ length: count }, () =>
        startProcess('webhooks-worker', { WEBHOOK_QUEUE: queue.name, WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: String(CAP), WEBHOOK_TIMEOUT_MS: '20000', ...env }),
      ),
    );
    started.push(...processes);
    return processes;
  };
  const newQueue = () => {
    const queue = new DeliveryQueueClient();
    queues.push(queue);
    return queue;
  };

  /** How many times these workers counted each of these delivery outcomes. */
  const outcomes = async (processes: ManagedProcess[], ...names: string[]) => {
    const counts = await Promise.all(
      processes.map(async (process) => {
        const metrics = await (await fetch(`http://127.0.0.1:${process.healthPort}/metrics`)).text();
        const count = (outcome: string) => Number(new RegExp(`^webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
        return names.reduce((sum, name) => sum + count(name), 0);
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  };
  /** How many times these workers put a job aside (parked it, or held it waiting for a slot of their own) because its webhook's slots were taken. */
  const parkedCount = (processes: ManagedProcess[]) => outcomes(processes, 'parked', 'waiting');

  afterAll(async () => {
    await Promise.all(started.map((process) => process.stop()));
    await Promise.all(queues.map((queue) => queue.close()));
  });

  it('two workers together keep a hanging receiver at the cap, waiting costs them nothing and uses up no attempt', async () => {
    const queue = newQueue();
    const pair = await workers(queue, 2);
    const path = uniquePath('cap');
    let hang = true;
    scene.receiver.on(path, () => (hang ? 'hang' : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const sent = await Promise.all(Array.from({ length: 12 }, () => queue.deliver(scene.orgId, hook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(CAP));
    await eventually(async () => expect(await parkedCount(pair)).toBe(12 - CAP));
    // Parked jobs stay out of the workers' way until a slot frees: none is taken up again meanwhile.
    await sleep(7_000);
    expect(scene.receiver.at(path)).toHaveLength(CAP);
    expect(await parkedCount(pair)).toBe(12 - CAP);

    hang = false;
    scene.receiver.release(200);
    const deliveries = await eventually(
      async () => {
        const list = await deliveriesOf(scene.api, hook.id, '?limit=100');
        expect(list).toHaveLength(12);
        return list;
      },
      { timeoutMs: 30_000 },
    );
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(sent.map((event) => event.id)));
    expect(deliveries.every((d) => d.success && d.attempt === 1)).toBe(true);
    expect(scene.receiver.at(path)).toHaveLength(12);
  });

  it('a hanging receiver delays only its own webhook', async () => {
    const queue = newQueue();
    await workers(queue, 1);
    const slow = uniquePath('slow');
    scene.receiver.on(slow, () => 'hang');
    const fast = uniquePath('fast');
    const slowHook = await createWebhook(scene.api, scene.receiver.url(slow), ['row.created']);
    const fastHook = await createWebhook(scene.api, scene.receiver.url(fast), ['row.created']);
    await Promise.all(Array.from({ length: 30 }, () => queue.deliver(scene.orgId, slowHook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(slow)).toHaveLength(CAP));
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => queue.deliver(scene.orgId, fastHook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(fast)).toHaveLength(10), { timeoutMs: 5_000 });
    const latencies = scene.receiver.at(fast).map((hit) => hit.receivedAt - started);
    expect(Math.max(...latencies)).toBeLessThan(3_000);
    expect(scene.receiver.at(slow)).toHaveLength(CAP);
    scene.receiver.release(200);
  });

  it("lets a quick webhook's burst beyond its organization's share wait in the worker for a handed-over slot instead of parking it", async () => {
    const queue = newQueue();
    // Generous bounds for quick and stalled: on a loaded machine a 20 ms answer can take longer than the defaults.
    const [worker] = await workers(queue, 1, { WEBHOOK_MAX_IN_FLIGHT_PER_ORG: '2', WEBHOOK_QUICK_RECEIVER_MS: '2000', WEBHOOK_STALL_MS: '10000' });
    const path = uniquePath('quick');
    let open = 0;
    let mostOpen = 0;
    scene.receiver.on(path, async () => {
      mostOpen = Math.max(mostOpen, (open += 1));
      // Quick, yet long enough that the burst finds the organization's two slots taken.
      await sleep(20);
      open -= 1;
      return { status: 200 };
    });
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    // One at a time first: the worker learns that the receiver answers at once.
    for (let i = 1; i <= 3; i += 1) {
      await queue.deliver(scene.orgId, hook.id, 'row.created');
      await eventually(() => expect(scene.receiver.at(path)).toHaveLength(i));
    }
    const burst = await Promise.all(Array.from({ length: 8 }, () => queue.deliver(scene.orgId, hook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(3 + burst.length));
    // Those beyond the organization's two waited for a slot an attempt handed over; none was parked.
    expect(await outcomes([worker], 'parked')).toBe(0);
    expect(await outcomes([worker], 'waiting')).toBeGreaterThan(0);
    // Handed over, never asked for: the organization's attempts in flight stayed within its share.
    expect(mostOpen).toBeLessThanOrEqual(2);
  });

  it('keeps one organization to its share of a worker, so that its many hanging webhooks leave another organization room', async () => {
    const queue = newQueue();
    // The other organization first: making one runs the admin command line twice, which on a loaded machine
    // took long enough for the hanging attempts to time out and be tried again before the count below.
    const other = await createTestOrg();
    // Four webhooks of three slots each could hold all twelve of the worker's slots; the organization gets four.
    // The attempts hang for longer than the spec runs, so that each of the four is still the only one of its job.
    await workers(queue, 1, { WEBHOOK_WORKER_CONCURRENCY: '12', WEBHOOK_MAX_IN_FLIGHT_PER_ORG: '4', WEBHOOK_TIMEOUT_MS: '120000' });
    const hanging = Array.from({ length: 4 }, () => uniquePath('org-share-hang'));
    for (const path of hanging) scene.receiver.on(path, () => 'hang');
    const hooks = await Promise.all(hanging.map((path) => createWebhook(scene.api, scene.receiver.url(path), ['row.created'])));
    const inFlight = () => hanging.reduce((sum, path) => sum + scene.receiver.at(path).length, 0);
    // One delivery of each first, so that the share is taken by attempts in flight; then five more of each.
    await Promise.all(hooks.map((hook) => queue.deliver(scene.orgId, hook.id, 'row.created')));
    await eventually(() => expect(inFlight()).toBe(4));
    await Promise.all(hooks.flatMap((hook) => Array.from({ length: 5 }, () => queue.deliver(scene.orgId, hook.id, 'row.created'))));
    const otherPath = uniquePath('org-share-other');
    const otherHook = await createWebhook(apiClient(other.key), scene.receiver.url(otherPath), ['row.created']);
    const started = Date.now();
    await queue.deliver(other.orgId, otherHook.id, 'row.created');
    await eventually(() => expect(scene.receiver.at(otherPath)).toHaveLength(1), { timeoutMs: 5_000 });
    expect(scene.receiver.at(otherPath)[0].receivedAt - started).toBeLessThan(3_000);
    await sleep(1_000);
    expect(inFlight()).toBe(4);
    scene.receiver.release(200);
  });

  it('probes a receiver that keeps timing out one request at a time, until it answers', async () => {
    const queue = newQueue();
    await workers(queue, 1, { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s' });
    const path = uniquePath('breaker');
    let hang = true;
    // Five timeouts in a row trip the breaker; the attempts already under way when it trips end first.
    const tripped = 5 + CAP;
    let mostOpenOnceTripped = 0;
    scene.receiver.on(path, async (_request, count) => {
      if (!hang) return { status: 200 };
      if (count > tripped) {
        // Long enough for the previous attempt's abort to reach the receiver, far shorter than an attempt.
        await sleep(100);
        mostOpenOnceTripped = Math.max(mostOpenOnceTripped, scene.receiver.openAt(path) + 1);
      }
      return 'hang';
    });
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const sent = await Promise.all(Array.from({ length: 8 }, () => queue.deliver(scene.orgId, hook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(path).length).toBeGreaterThanOrEqual(tripped + 4), { timeoutMs: 60_000 });
    expect(mostOpenOnceTripped).toBe(1);

    hang = false;
    await eventually(
      async () => {
        const succeeded = (await deliveriesOf(scene.api, hook.id, '?success=true&limit=100')).map((d) => d.event_id);
        expect(new Set(succeeded)).toEqual(new Set(sent.map((event) => event.id)));
      },
      { timeoutMs: 40_000 },
    );
  });

  it('frees the slots of a worker killed with SIGKILL while holding them', async () => {
    const queue = newQueue();
    // The lease outlives the attempt's deadline (3 s) by a margin; a killed worker's leases lapse after it.
    const env = { WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_JOB_LOCK_MS: '1000', WEBHOOK_STALLED_CHECK_MS: '500' };
    const [doomed] = await workers(queue, 1, env);
    const path = uniquePath('killed');
    let hang = true;
    scene.receiver.on(path, () => (hang ? 'hang' : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const sent = await Promise.all(Array.from({ length: 6 }, () => queue.deliver(scene.orgId, hook.id, 'row.created')));
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(CAP));
    doomed.kill('SIGKILL');
    await doomed.exited;
    hang = false;
    scene.receiver.release(200);
    await workers(queue, 1, env);
    await eventually(
      async () => {
        const succeeded = (await deliveriesOf(scene.api, hook.id, '?success=true&limit=100')).map((d) => d.event_id);
        expect(new Set(succeeded)).toEqual(new Set(sent.map((event) => event.id)));
      },
      { timeoutMs: 40_000 },
    );
  });
});
