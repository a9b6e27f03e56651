import { randomUUID } from 'node:crypto';
import { loadConfig } from '@platform/config';
import { stackEnv } from '@platform/testing';
import IORedis from 'ioredis';
import { InFlightLeases, LeaseAnswer } from '../src/delivery/in-flight-leases';
import { WebhooksWorkerConfig } from '../src/webhooks.config';
import { sleep } from './webhook-fixtures';

const INTERVAL_MS = 1_000;
/** Redis's clock and ours count whole milliseconds apart. */
const CLOCK_MS = 1;
/** A timer may fire a millisecond before its time. */
const TIMER_MS = 5;

describe('rate-limited jobs start in the order they asked, on the leases in Redis', () => {
  const queue = `webhook-deliveries-e2e-pace-${process.pid}-${randomUUID().slice(0, 8)}`;
  const config = loadConfig(WebhooksWorkerConfig, { ...stackEnv(), WEBHOOK_QUEUE: queue });
  const leases = new InFlightLeases(config);
  const redis = new IORedis(stackEnv().REDIS_URL, { maxRetriesPerRequest: 3 });
  const webhookId = randomUUID();

  afterAll(async () => {
    leases.onApplicationShutdown();
    redis.disconnect();
  });

  const ask = (holder: string): Promise<LeaseAnswer> => leases.acquire(webhookId, holder, INTERVAL_MS);
  const waitOf = (answer: LeaseAnswer): number => {
    if (answer.granted || !('waitMs' in answer)) throw new Error(`expected a wait, got ${JSON.stringify(answer)}`);
    return answer.waitMs;
  };

  it('reserves one start per interval in asking order, keeps a reservation when asked early, lines a newcomer up behind, and leaves nothing in Redis', async () => {
    // A wait is the reserved start less the time since a's start: at most the time these calls took,
    // measured here from before a asked to after each answer, however slow the machine.
    const asked = Date.now();
    expect(await ask('a')).toMatchObject({ granted: true });
    const sinceA: number[] = [];
    const waits: number[] = [];
    for (const holder of ['b', 'c', 'd']) {
      waits.push(waitOf(await ask(holder)));
      sinceA.push(Date.now() - asked);
    }
    waits.forEach((wait, n) => {
      expect(wait).toBeLessThanOrEqual((n + 1) * INTERVAL_MS);
      expect(wait).toBeGreaterThanOrEqual((n + 1) * INTERVAL_MS - sinceA[n] - CLOCK_MS);
    });
    await leases.release(webhookId, 'a', 'success', INTERVAL_MS);

    // c asks again before its start: it keeps its place (the same start), it does not go to the end.
    const again = waitOf(await ask('c'));
    expect(again).toBeLessThanOrEqual(waits[1]);
    // A newcomer waits behind every reservation, though its slot is free and b's start has not come.
    const newcomer = waitOf(await ask('e'));
    expect(newcomer).toBeGreaterThanOrEqual(4 * INTERVAL_MS - (Date.now() - asked) - CLOCK_MS);

    await sleep(waits[0] + TIMER_MS);
    expect(await ask('b')).toMatchObject({ granted: true });
    // Right after b, no one starts, c included: starts stay an interval apart.
    expect(waitOf(await ask('c'))).toBeGreaterThan(0);
    await sleep(INTERVAL_MS + TIMER_MS);
    expect(await ask('c')).toMatchObject({ granted: true });
    for (const holder of ['b', 'c']) await leases.release(webhookId, holder, 'success', INTERVAL_MS);
    await leases.forget(webhookId, 'd');
    await leases.forget(webhookId, 'e');

    // The pace outlives the last start by at most the reservations it had handed out.
    await sleep(4 * INTERVAL_MS);
    expect(await redis.keys(`*${queue}*`)).toEqual([]);
  });

  it('paces nothing without a rate limit', async () => {
    const free = randomUUID();
    for (const holder of ['x', 'y', 'z']) expect(await leases.acquire(free, holder, 0)).toMatchObject({ granted: true });
    for (const holder of ['x', 'y', 'z']) await leases.release(free, holder, 'success', 0);
  });
});
