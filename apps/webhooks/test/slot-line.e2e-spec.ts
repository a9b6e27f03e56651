import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@platform/config';
import { eventually, stackEnv } from '@platform/testing';
import IORedis from 'ioredis';
import type { DeliveryQueue } from '../src/delivery/delivery-queue';
import { InFlightLeases } from '../src/delivery/in-flight-leases';
import { IN_LINE_ASK_MS, SlotAnswer, WorkerSlots } from '../src/delivery/worker-slots';
import { WebhooksWorkerConfig } from '../src/webhooks.config';
import { sleep } from './webhook-fixtures';

const CAP = 2;

type Taken = Extract<SlotAnswer, { slot: unknown }>;
const isSlot = (answer: SlotAnswer): answer is Taken => 'slot' in answer;

/** A worker's slots on the real leases in Redis, as the worker process builds them (no queue: nothing here is parked). */
async function worker(config: WebhooksWorkerConfig): Promise<{ leases: InFlightLeases; slots: WorkerSlots }> {
  const leases = new InFlightLeases(config);
  const queue = { promote: async () => true } as unknown as DeliveryQueue;
  const slots = new WorkerSlots(leases, queue, config);
  await slots.onModuleInit();
  return { leases, slots };
}

describe("a webhook's slots shared by two workers: jobs that find them taken wait in one line in Redis", () => {
  const queue = `webhook-deliveries-e2e-line-${process.pid}-${randomUUID().slice(0, 8)}`;
  const config = loadConfig(WebhooksWorkerConfig, { ...stackEnv(), WEBHOOK_QUEUE: queue, WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: String(CAP) });
  const redis = new IORedis(stackEnv().REDIS_URL, { maxRetriesPerRequest: 3 });
  const workers: Array<{ leases: InFlightLeases; slots: WorkerSlots }> = [];
  const start = async () => {
    const started = await worker(config);
    workers.push(started);
    return started;
  };
  const taken = async (answer: Promise<SlotAnswer>): Promise<Taken> => {
    const settled = await answer;
    if (!isSlot(settled)) throw new Error(`expected a slot, got ${JSON.stringify(settled)}`);
    return settled;
  };
  /** Whether the promise has settled within `ms`. */
  const settledWithin = (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

  afterAll(async () => {
    for (const { slots, leases } of workers) {
      slots.close();
      leases.onApplicationShutdown();
    }
    await redis.del(...(await redis.keys(`*${queue}*`)), 'none');
    redis.disconnect();
  });

  it('tells a worker when any worker last freed a slot while jobs waited in line (its stall watch), and keeps nothing when none waited', async () => {
    const [a, b] = [await start(), await start()];
    const webhookId = randomUUID();
    for (const holder of ['a-0', 'a-1']) expect(await a.leases.acquire(webhookId, holder, 0)).toMatchObject({ granted: true });
    // Nobody in line: a release leaves no trace.
    await a.leases.release(webhookId, 'a-0', 'success', 0);
    expect(await b.leases.freedAgo(webhookId, 60_000)).toBeUndefined();
    expect(await redis.exists(`webhook-in-flight:{${queue}}:${webhookId}:freed`)).toBe(0);
    expect(await a.leases.acquire(webhookId, 'a-2', 0)).toMatchObject({ granted: true });
    // A job of worker b waits in line; worker a frees a slot (granted to it): b hears that the webhook's attempts keep ending.
    expect(await b.leases.acquire(webhookId, 'b-0', 0, 'want')).toMatchObject({ inLine: true });
    await a.leases.release(webhookId, 'a-1', 'success', 0);
    const ago = await b.leases.freedAgo(webhookId, 1_000);
    expect(ago).toBeGreaterThanOrEqual(0);
    expect(ago).toBeLessThan(1_000);
    for (const [w, holder] of [[b, 'b-0'], [a, 'a-2']] as const) await w.leases.release(webhookId, holder, 'success', 0);
    // Not within a window shorter than it was.
    await sleep(50);
    expect(await b.leases.freedAgo(webhookId, 10)).toBeUndefined();
  });

  it("grants a freed slot to the job that has waited longest, whichever worker it waits in, told at once, never more than the cap in flight", async () => {
    const [a, b] = [await start(), await start()];
    const webhookId = randomUUID();
    const take = (w: { slots: WorkerSlots }, holder: string) => w.slots.take(webhookId, `org-${holder}`, holder, null);
    // Worker a holds both slots, with successes behind it (so, uncontended, it would pass them on to its own jobs without Redis).
    const warm = await taken(take(a, 'a-0'));
    await warm.slot.release('success');
    const held = [await taken(take(a, 'a-1')), await taken(take(a, 'a-2'))];
    // b's job finds them taken and goes in line; then one of a's.
    const bJob = take(b, 'b-1');
    await sleep(50);
    const aJob = take(a, 'a-3');
    await sleep(50);
    expect(await redis.zrange(`webhook-in-flight:{${queue}}:${webhookId}:wanting`, 0, -1)).toEqual([`${b.leases.worker}|b-1`, `${a.leases.worker}|a-3`]);

    // a's success goes through Redis: b's job, in line longest, gets the slot, told on b's channel within moments (not at its next ask).
    const releasedAt = performance.now();
    await held[0].slot.release('success');
    const bTaken = await taken(bJob);
    expect(performance.now() - releasedAt).toBeLessThan(IN_LINE_ASK_MS / 2);
    expect(await settledWithin(aJob, 100)).toBe(false);
    expect(await redis.zcard(`webhook-in-flight:{${queue}}:${webhookId}:leases`)).toBe(CAP);

    // The next release, b's own, goes to a's job.
    await bTaken.slot.release('success');
    const aTaken = await taken(aJob);
    for (const slot of [held[1], aTaken]) await slot.slot.release('success');
    expect(await redis.zcard(`webhook-in-flight:{${queue}}:${webhookId}:leases`)).toBe(0);
    expect(await redis.exists(`webhook-in-flight:{${queue}}:${webhookId}:wanting`)).toBe(0);
  });

  it("passes over the jobs in line of a worker that is gone (its heartbeat lapsed): the slot goes to the next job in line at once", async () => {
    const [a, gone] = [await start(), await start()];
    const webhookId = randomUUID();
    const held = await Promise.all(['a-1', 'a-2'].map((holder) => taken(a.slots.take(webhookId, 'org', holder, null))));
    // A job of the other worker goes in line, then that worker stops (it died: nothing of it leaves the line).
    expect(await gone.leases.acquire(webhookId, 'gone-1', 0, 'want')).toMatchObject({ granted: false, inLine: true });
    gone.leases.onApplicationShutdown();
    const next = a.slots.take(webhookId, 'org', 'a-3', null);
    await eventually(async () => expect(await redis.exists(`webhook-in-flight:{${queue}}:worker:${gone.leases.worker}`)).toBe(0), { timeoutMs: 5_000 });
    // While the gone worker's heartbeat stood, its job would have had the slot (for GRANT_MS); now a's job, next in line, gets it.
    const releasedAt = performance.now();
    await held[0].slot.release('success');
    const aTaken = await taken(next);
    expect(performance.now() - releasedAt).toBeLessThan(IN_LINE_ASK_MS / 2);
    expect(await redis.zrange(`webhook-in-flight:{${queue}}:${webhookId}:leases`, 0, -1)).toEqual(expect.arrayContaining(['a-2', 'a-3']));
    for (const slot of [held[1], aTaken]) await slot.slot.release('success');
    expect(await redis.exists(`webhook-in-flight:{${queue}}:${webhookId}:wanting`)).toBe(0);
  });
});
