import { randomUUID } from 'node:crypto';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { connectRedis } from '@platform/service';
import type IORedis from 'ioredis';
import { WebhooksWorkerConfig } from '../webhooks.config';

/*
 * Per webhook, four sorted sets: `leases` (holder -> expiry), `parked` (job -> when it became due),
 * `woken` (job promoted to run again -> when it became due, until it takes a slot) and `wanting` (a job
 * waiting in its worker for a slot that other workers hold, as `<worker>|<job>` -> since when); a count
 * of the receiver's consecutive timeouts (`timeouts`); and one set of the webhooks that have parked jobs,
 * for the sweep. A job keeps the time it first became due through every park and wake-up, so parked jobs
 * run in the order of the retry schedule. The time is Redis's, the same for every worker.
 *
 * A webhook with a rate limit also has `pace` (a hash: `next`, the earliest time another attempt may
 * start; `tat`, the first start time no job has reserved yet) and `paced` (job -> the start time it
 * reserved). Starts are at least one interval (1000 ms / rate, rounded up) apart.
 */
const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * The clock, and the expired leases of a dead worker dropped; `lease` gives the holder a slot until `ms`
 * from now, the set lasting at least `keep` ms. KEYS[1]: leases.
 */
const NOW = `${CLOCK}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local function lease(holder, ms, keep)
  redis.call('ZADD', KEYS[1], now + tonumber(ms), holder)
  redis.call('PEXPIRE', KEYS[1], keep)
end`;

/**
 * A job's place in its webhook's lists. `unpark` takes it out of `parked` and `woken` (it starts, or waits
 * for its pace); `park` puts it in `parked`, keeping the time it first became due (woken or parked before),
 * and names the webhook for the sweep.
 */
const PARKING = `
local function unpark(parked, woken, holder)
  redis.call('ZREM', parked, holder)
  redis.call('ZREM', woken, holder)
end
local function park(parked, woken, parked_webhooks, holder, webhook, now)
  local due = redis.call('ZSCORE', woken, holder) or redis.call('ZSCORE', parked, holder) or now
  redis.call('ZREM', woken, holder)
  redis.call('ZADD', parked, due, holder)
  redis.call('SADD', parked_webhooks, webhook)
  return 0
end`;

/** The webhook's slots: the maximum, or one while its receiver keeps timing out. KEYS[4]: timeouts; ARGV[2]: max, ARGV[3]: breaker threshold. */
const SLOTS = `
local slots = tonumber(ARGV[2])
if tonumber(redis.call('GET', KEYS[4]) or '0') >= tonumber(ARGV[3]) then slots = 1 end`;

/**
 * How long a job may come back after the start time it reserved and still keep it; later it reserves
 * again at the end of the line (its worker was down, or it found the slots taken and was parked).
 */
const RESERVATION_KEPT_MS = 60_000;

/**
 * The rate limit, for an interval in ms (0: none). `pace_wait` answers 0 when the holder may start now
 * (and counts its start), else how many ms it must wait: a job that reserved a start keeps it; a new job
 * starts now only when nothing is reserved and the interval since the last start has passed, otherwise it
 * reserves the first free start, so waiting jobs start in the order they asked. `pace_free` tells whether
 * a new job could start now without a reservation, for a slot handed over.
 */
const PACE = `
local function pace_expire(pace, paced, now)
  local tat = tonumber(redis.call('HGET', pace, 'tat') or '0')
  if tat > now then redis.call('PEXPIRE', pace, tat - now) end
  local last = redis.call('ZRANGE', paced, -1, -1, 'WITHSCORES')
  if last[2] then redis.call('PEXPIRE', paced, math.max(tonumber(last[2]) - now, 0) + ${RESERVATION_KEPT_MS}) end
end
local function pace_start(pace, paced, holder, interval, now)
  redis.call('ZREM', paced, holder)
  local tat = tonumber(redis.call('HGET', pace, 'tat') or '0')
  redis.call('HSET', pace, 'next', now + interval, 'tat', math.max(tat, now + interval))
  pace_expire(pace, paced, now)
end
local function pace_free(pace, paced, interval, now)
  if interval <= 0 then return true end
  redis.call('ZREMRANGEBYSCORE', paced, '-inf', now - ${RESERVATION_KEPT_MS})
  return redis.call('ZCARD', paced) == 0 and now >= tonumber(redis.call('HGET', pace, 'next') or '0')
end
local function pace_wait(pace, paced, holder, interval, now)
  if pace_free(pace, paced, interval, now) then
    if interval > 0 then pace_start(pace, paced, holder, interval, now) end
    return 0
  end
  local nextStart = tonumber(redis.call('HGET', pace, 'next') or '0')
  local reserved = redis.call('ZSCORE', paced, holder)
  local at
  if reserved then
    at = math.max(tonumber(reserved), nextStart)
  else
    at = math.max(tonumber(redis.call('HGET', pace, 'tat') or '0'), nextStart, now)
    if at > now then
      redis.call('ZADD', paced, at, holder)
      redis.call('HSET', pace, 'tat', at + interval)
      pace_expire(pace, paced, now)
    end
  end
  if at > now then return at - now end
  pace_start(pace, paced, holder, interval, now)
  return 0
end`;

/**
 * Takes a slot for the holder when it holds one already (a slot granted while it waited) or fewer than
 * the webhook's slots are held (expired leases of a dead worker are dropped first) and its rate limit
 * lets it start now, and answers 1; when the rate limit does not, answers minus the ms to wait (the job
 * then waits in the delayed set, holding no slot). Otherwise, by the mode: `park` parks it and answers 0;
 * `refuse` (it waits in its worker for a slot an attempt there passes on) takes it out of the lists and
 * answers 2; `want` (it waits in its worker for a slot whichever worker frees it) puts it in `wanting`,
 * keeping its place when it is there already, and answers 3, announcing on the contended channel that
 * the webhook's slots now have a job of some worker waiting for them. Every answer comes with the number
 * of jobs in `wanting`, so a worker learns when the slots it holds are wanted elsewhere.
 * KEYS: leases, parked, woken, timeouts, parked webhooks, pace, paced, wanting; ARGV: holder, max in flight,
 * breaker threshold, lease ms, webhook id, interval ms, mode, the holder as a member of wanting, contended channel.
 */
const ACQUIRE = `
redis.replicate_commands()
${NOW}
${SLOTS}
${PACE}
${PARKING}
local function answer(code) return {code, redis.call('ZCARD', KEYS[8])} end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < slots then
  local wait = pace_wait(KEYS[6], KEYS[7], ARGV[1], tonumber(ARGV[6]), now)
  unpark(KEYS[2], KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[8], ARGV[8])
  if wait > 0 then return answer(-wait) end
  lease(ARGV[1], ARGV[4], ARGV[4])
  return answer(1)
end
unpark(KEYS[2], KEYS[3], ARGV[1])
if ARGV[7] == 'want' then
  local added = redis.call('ZADD', KEYS[8], 'NX', now, ARGV[8])
  redis.call('PEXPIRE', KEYS[8], ARGV[4])
  if added == 1 and redis.call('ZCARD', KEYS[8]) == 1 then redis.call('PUBLISH', ARGV[9], ARGV[5]) end
  return answer(3)
end
redis.call('ZREM', KEYS[8], ARGV[8])
if ARGV[7] == 'refuse' then return answer(2) end
park(KEYS[2], KEYS[3], KEYS[5], ARGV[1], ARGV[5], now)
return answer(0)`;

/**
 * Keeps a granted slot for the length of an attempt: a slot granted to a job waiting in another worker is
 * leased for GRANT_MS only (should that worker be gone, it comes free soon), and renewed by the attempt
 * that takes it. Answers 1, or 0 when the lease is gone (it lapsed).
 * KEYS: leases; ARGV: holder, lease ms.
 */
const RENEW = `
redis.replicate_commands()
${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
lease(ARGV[1], ARGV[2], ARGV[2])
return 1`;

/**
 * Parks the holder without asking for a slot (its organization has no worker slot free for it): it keeps
 * the time it first became due, and a freed slot of its webhook or the sweep wakes it.
 * KEYS: parked, woken, parked webhooks; ARGV: holder, webhook id.
 */
const PARK = `
redis.replicate_commands()
${CLOCK}
${PARKING}
return park(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], now)`;

/** How many jobs of workers that are gone (no heartbeat) a release drops from the head of a line before it gives up on the line. */
const LINE_CHECKED = 20;

/**
 * Gives the holder's slot back, counts the attempt's timeout (or clears the count on a success), then,
 * when a slot is free: grants it to the job in `wanting` that has waited longest (a webhook without a
 * rate limit) in a worker still alive (its heartbeat key stands; jobs of a worker that is gone are
 * dropped), leased for GRANT_MS, answering `granted` and the job when it waits in the releasing
 * worker, else publishing the grant on that worker's channel (`<webhook> <job>`) and answering `sent`;
 * or hands it straight to the next holder, a job already waiting for it in the same worker (when the
 * rate limit allows it: a job already fetched goes before a parked one, whose wake-up would cost a round
 * trip through the queue), answering `handed`; or wakes the parked job that has been due longest,
 * answering `woken` and its id. Every answer ends with the number of jobs still in `wanting`.
 * KEYS: leases, parked, woken, timeouts, pace, paced, wanting; ARGV: holder, max in flight, breaker threshold,
 * outcome, next holder ('' for none), lease ms, interval ms, the releasing worker, grant ms, grants channel
 * prefix, webhook id, heartbeat key prefix (a key of the queue's hash tag, like every other); KEYS[8]: when a
 * slot was last freed while jobs waited in line, kept ARGV[13] ms (the stall watch of those jobs asks FREED_AGO
 * within that), so nothing of it outlasts the line by more.
 */
const RELEASE = `
redis.replicate_commands()
${NOW}
${PACE}
${PARKING}
local function answer(kind, value) return {kind, value, redis.call('ZCARD', KEYS[7])} end
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('ZCARD', KEYS[7]) > 0 then redis.call('SET', KEYS[8], now, 'PX', ARGV[13]) end
if ARGV[4] == 'timeout' then
  redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], 86400000)
elseif ARGV[4] == 'success' then
  redis.call('DEL', KEYS[4])
end
${SLOTS}
if tonumber(ARGV[7]) == 0 and redis.call('ZCARD', KEYS[1]) < slots then
  for _ = 1, ${LINE_CHECKED} do
    local wanting = redis.call('ZRANGE', KEYS[7], 0, 0)[1]
    if not wanting then break end
    redis.call('ZREM', KEYS[7], wanting)
    local bar = string.find(wanting, '|', 1, true)
    local worker, holder = string.sub(wanting, 1, bar - 1), string.sub(wanting, bar + 1)
    if worker == ARGV[8] or redis.call('EXISTS', ARGV[12] .. worker) == 1 then
      lease(holder, ARGV[9], ARGV[6])
      if ARGV[5] ~= '' then unpark(KEYS[2], KEYS[3], ARGV[5]) end
      if worker == ARGV[8] then return answer('granted', holder) end
      redis.call('PUBLISH', ARGV[10] .. worker, ARGV[11] .. ' ' .. holder)
      return answer('sent', holder)
    end
  end
end
if ARGV[5] ~= '' then
  unpark(KEYS[2], KEYS[3], ARGV[5])
  if redis.call('ZCARD', KEYS[1]) < slots and pace_free(KEYS[5], KEYS[6], tonumber(ARGV[7]), now) then
    if tonumber(ARGV[7]) > 0 then pace_start(KEYS[5], KEYS[6], ARGV[5], tonumber(ARGV[7]), now) end
    lease(ARGV[5], ARGV[6], ARGV[6])
    return answer('handed', '')
  end
end
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[3]) >= slots then return answer('none', '') end
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if first[1] then
  redis.call('ZREM', KEYS[2], first[1])
  redis.call('ZADD', KEYS[3], first[2], first[1])
  return answer('woken', first[1])
end
return answer('none', '')`;

/**
 * Wakes as many parked jobs as the webhook has free slots (counting jobs already woken and on their way),
 * or at least as many as asked for, and answers every woken job, so a wake-up that was lost is sent again;
 * forgets the webhook once nothing of it is parked or woken.
 * KEYS: leases, parked, woken, timeouts, parked webhooks; ARGV: webhook id, max in flight, breaker threshold, at least.
 */
const SWEEP = `
redis.replicate_commands()
${NOW}
${SLOTS}
local free = math.max(slots - redis.call('ZCARD', KEYS[1]) - redis.call('ZCARD', KEYS[3]), tonumber(ARGV[4]))
if free > 0 then
  local wake = redis.call('ZRANGE', KEYS[2], 0, free - 1, 'WITHSCORES')
  for i = 1, #wake, 2 do
    redis.call('ZREM', KEYS[2], wake[i])
    redis.call('ZADD', KEYS[3], wake[i + 1], wake[i])
  end
end
local woken = redis.call('ZRANGE', KEYS[3], 0, -1)
if #woken == 0 and redis.call('ZCARD', KEYS[2]) == 0 then
  redis.call('SREM', KEYS[5], ARGV[1])
end
return woken`;

/** Ms since a slot of the webhook was last freed, by any worker, when that is at most ARGV[1]; else -1. KEYS[1]: freed. */
const FREED_AGO = `
${CLOCK}
local freed = tonumber(redis.call('GET', KEYS[1]) or '')
if freed and now - freed <= tonumber(ARGV[1]) then return math.max(0, now - freed) end
return -1`;

/** Beyond the attempt's own deadline, the longest a host lookup may take before it starts. */
const LEASE_MARGIN_MS = 5_000;

/**
 * How long after a lease was written in Redis a worker may still pass it on to another job of the same
 * webhook without asking Redis (see WorkerSlots): the lease lasts this much longer than one attempt, so
 * an attempt that takes it over at the last moment still ends before it lapses.
 */
export const PASS_ON_MS = 2_000;

/**
 * How long a slot granted to a job waiting in a worker is leased before that job's attempt renews it: a
 * grant to a worker that died meanwhile comes free this soon.
 */
export const GRANT_MS = 5_000;

/** How often a worker says it is alive, and how long that lasts: a release skips the jobs in line of a worker silent longer. */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TTL_MS = 3_000;

/**
 * After this many timeouts in a row a webhook gets one slot instead of the maximum, until an attempt
 * succeeds: a receiver that has stopped answering is probed one request at a time, not hammered.
 */
export const BREAKER_TIMEOUTS = 5;

/** How an attempt that held a slot ended, as far as the breaker cares. */
export type SlotOutcome = 'success' | 'timeout' | 'other';

/**
 * What a job that finds the webhook's slots taken does: `park` (in Redis's list, out of the queue's way),
 * `refuse` (it waits in its worker for an attempt there to pass a slot on), or `want` (it waits in its
 * worker, in line with the jobs of every worker that wait so, for whichever worker frees a slot first).
 */
export type AcquireMode = 'park' | 'refuse' | 'want';

/**
 * A slot, or why not: paced (`waitMs` until the rate limit lets it start), or the slots are taken, and the
 * holder is `parked` until one comes free (or was not, when asked not to be), or waits `inLine` for one.
 * `wanting`: how many jobs of any worker wait in line for the webhook's slots.
 */
export type LeaseAnswer = ({ granted: true } | { granted: false; waitMs: number } | { granted: false; parked: boolean } | { granted: false; inLine: true }) & { wanting?: number };

/**
 * What a release came to: the slot `handed` to the job named as next; or `granted` to this worker's job
 * waiting in line (named); or sent to another worker's; or a parked job `woken` (named). `wanting`: jobs
 * of any worker still in line for the webhook's slots.
 */
export interface ReleaseAnswer {
  handed: boolean;
  granted?: string;
  woken?: string;
  wanting?: number;
}

/** Whom the grants and announcements of other workers' releases reach in this worker. */
export interface SlotListener {
  /** A slot of the webhook was granted to this worker's job, waiting in line. */
  granted(webhookId: string, holder: string): void;
  /** A job of some worker now waits in line for the webhook's slots. */
  contended(webhookId: string): void;
}

/** The least time between two starts of a webhook's attempts; 0 for no limit. Rounded up so the rate is never exceeded. */
export function paceInterval(rateLimit: number | null | undefined): number {
  return rateLimit ? Math.ceil(1000 / rateLimit) : 0;
}

interface WebhookKeys {
  leases: string;
  parked: string;
  woken: string;
  timeouts: string;
  pace: string;
  paced: string;
  wanting: string;
  freed: string;
}

type LeaseRedis = IORedis & {
  acquireLease(
    ...args: [...keys: string[], holder: string, max: number, breaker: number, leaseMs: number, webhookId: string, intervalMs: number, mode: AcquireMode, member: string, channel: string]
  ): Promise<[number, number]>;
  releaseLease(
    ...args: [
      ...keys: string[],
      holder: string,
      max: number,
      breaker: number,
      outcome: SlotOutcome,
      next: string,
      leaseMs: number,
      intervalMs: number,
      worker: string,
      grantMs: number,
      grantsChannel: string,
      webhookId: string,
      heartbeats: string,
      freedMs: number,
    ]
  ): Promise<[string, string, number]>;
  renewLease(leases: string, holder: string, leaseMs: number): Promise<number>;
  freedAgo(freed: string, withinMs: number): Promise<number>;
  sweepLeases(...args: [...keys: string[], webhookId: string, max: number, breaker: number, atLeast: number]): Promise<string[]>;
  parkHolder(...args: [parked: string, woken: string, parkedWebhooks: string, holder: string, webhookId: string]): Promise<number>;
};

/**
 * At most WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK attempts in flight per webhook across every worker process:
 * a sorted set of leases per webhook in Redis, each expiring after the attempt's deadline, so the slots of
 * a worker killed mid-attempt come free by themselves. A job that finds no free slot is parked here (and
 * out of the queue's way) until a freed slot or the sweep wakes it, or waits in its worker in line with
 * the other workers' jobs, and a release grants the slot to the one that has waited longest, whichever
 * worker it waits in (told on its worker's channel).
 */
@Injectable()
export class InFlightLeases implements OnApplicationShutdown {
  /** This worker, as it is named in the webhooks' lines. */
  readonly worker = randomUUID();
  private readonly redis: LeaseRedis;
  private subscriber?: IORedis;
  private heartbeat?: NodeJS.Timeout;
  private readonly leaseMs: number;
  private readonly max: number;

  constructor(private readonly config: WebhooksWorkerConfig) {
    const redis = connectRedis(config.REDIS_URL, 'slot-leases');
    redis.defineCommand('acquireLease', { numberOfKeys: 8, lua: ACQUIRE });
    redis.defineCommand('releaseLease', { numberOfKeys: 8, lua: RELEASE });
    redis.defineCommand('freedAgo', { numberOfKeys: 1, lua: FREED_AGO });
    redis.defineCommand('renewLease', { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand('sweepLeases', { numberOfKeys: 5, lua: SWEEP });
    redis.defineCommand('parkHolder', { numberOfKeys: 3, lua: PARK });
    this.redis = redis as LeaseRedis;
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS + PASS_ON_MS;
    this.max = config.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK;
  }

  /**
   * Tells `listener` of the grants to this worker's jobs and of webhooks whose slots are wanted. A message
   * lost (the connection dropped) costs a job in line no more than its next ask: it asks again every so often.
   */
  async listen(listener: SlotListener): Promise<void> {
    // Alive while it listens: a release grants slots only to the jobs in line of a worker alive.
    const beat = () => this.redis.set(this.heartbeatPrefix() + this.worker, '1', 'PX', HEARTBEAT_TTL_MS).catch(() => undefined);
    await beat();
    this.heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    const subscriber = connectRedis(this.config.REDIS_URL, 'queue-worker');
    this.subscriber = subscriber;
    const grants = this.grantsChannel() + this.worker;
    const contended = this.contendedChannel();
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === contended) return listener.contended(message);
      const space = message.indexOf(' ');
      if (channel === grants && space > 0) listener.granted(message.slice(0, space), message.slice(space + 1));
    });
    await subscriber.subscribe(grants, contended);
  }

  /**
   * Granted when the holder may start an attempt now; otherwise, when only the webhook's rate limit
   * (`intervalMs` between starts) holds it back, told how long to wait; else, by `mode`, parked until a
   * slot comes free, in none of the webhook's lists (`refuse`), or in line for a slot (`want`).
   */
  async acquire(webhookId: string, holder: string, intervalMs: number, mode: AcquireMode = 'park'): Promise<LeaseAnswer> {
    const { leases, parked, woken, timeouts, pace, paced, wanting } = this.keys(webhookId);
    const [code, inLine] = await this.redis.acquireLease(
      leases, parked, woken, timeouts, this.parkedWebhooks(), pace, paced, wanting,
      holder, this.max, BREAKER_TIMEOUTS, this.leaseMs, webhookId, intervalMs, mode, this.member(holder), this.contendedChannel(),
    );
    if (code === 1) return { granted: true, wanting: inLine };
    if (code < 0) return { granted: false, waitMs: -code, wanting: inLine };
    return code === 3 ? { granted: false, inLine: true, wanting: inLine } : { granted: false, parked: code === 0, wanting: inLine };
  }

  /** Keeps a granted slot for an attempt's length; false when its lease lapsed. */
  async renew(webhookId: string, holder: string): Promise<boolean> {
    return (await this.redis.renewLease(this.keys(webhookId).leases, holder, this.leaseMs)) === 1;
  }

  /** Parks the holder in its webhook's list without taking a slot, until a freed slot or the sweep wakes it. */
  async park(webhookId: string, holder: string): Promise<void> {
    const { parked, woken } = this.keys(webhookId);
    await this.redis.parkHolder(parked, woken, this.parkedWebhooks(), holder, webhookId);
  }

  /**
   * Frees a slot: `lease` names it (the job that took it from Redis; a worker that passed it on to other
   * jobs keeps that name). The job of any worker waiting in line longest gets it first; else, with `next`,
   * a job waiting in this worker, the slot goes straight to it when the webhook's slots allow (`handed`);
   * otherwise the parked job that has been due longest is woken, if a slot is free for it, and answered
   * (`woken`). A slot is handed over only when the rate limit (`intervalMs`) lets a job start now.
   */
  async release(webhookId: string, lease: string, outcome: SlotOutcome, intervalMs: number, next?: string): Promise<ReleaseAnswer> {
    const { leases, parked, woken, timeouts, pace, paced, wanting, freed } = this.keys(webhookId);
    const [kind, value, inLine] = await this.redis.releaseLease(
      leases, parked, woken, timeouts, pace, paced, wanting, freed,
      lease, this.max, BREAKER_TIMEOUTS, outcome, next ?? '', this.leaseMs, intervalMs, this.worker, GRANT_MS, this.grantsChannel(), webhookId, this.heartbeatPrefix(),
      this.config.WEBHOOK_STALL_MS,
    );
    return { handed: kind === 'handed', granted: kind === 'granted' ? value : undefined, woken: kind === 'woken' ? value : undefined, wanting: inLine };
  }

  /**
   * How long ago (ms) a worker last freed one of the webhook's slots, when at most `withinMs` ago; undefined
   * otherwise. Jobs waiting in line are served by every worker's releases: this tells their worker whether the
   * webhook's attempts keep ending elsewhere.
   */
  async freedAgo(webhookId: string, withinMs: number): Promise<number | undefined> {
    const ago = await this.redis.freedAgo(this.keys(webhookId).freed, withinMs);
    return ago >= 0 ? ago : undefined;
  }

  /** The webhooks that have parked or woken jobs. */
  async webhooksWithParkedJobs(): Promise<string[]> {
    return this.redis.smembers(this.parkedWebhooks());
  }

  /**
   * Wakes the webhook's parked jobs its free slots allow, or at least `atLeast` of them (the longest due
   * first); answers every woken job still to take a slot.
   */
  async sweep(webhookId: string, atLeast = 0): Promise<string[]> {
    const { leases, parked, woken, timeouts } = this.keys(webhookId);
    return this.redis.sweepLeases(leases, parked, woken, timeouts, this.parkedWebhooks(), webhookId, this.max, BREAKER_TIMEOUTS, atLeast);
  }

  /** Drops a job the queue no longer holds (removed, or lost with Redis) from the webhook's lists. */
  async forget(webhookId: string, holder: string): Promise<void> {
    const { parked, woken, paced } = this.keys(webhookId);
    await this.redis.multi().zrem(parked, holder).zrem(woken, holder).zrem(paced, holder).exec();
  }

  onApplicationShutdown(): void {
    clearInterval(this.heartbeat);
    this.subscriber?.disconnect();
    this.redis.disconnect();
  }

  /** The job as a member of a webhook's line: the worker it waits in, then the job. */
  private member(holder: string): string {
    return `${this.worker}|${holder}`;
  }

  // One hash tag for every key of the queue, so the scripts also run on a Redis Cluster.
  private parkedWebhooks(): string {
    return `webhook-in-flight:{${this.config.WEBHOOK_QUEUE}}:parked-webhooks`;
  }

  private grantsChannel(): string {
    return `webhook-in-flight:{${this.config.WEBHOOK_QUEUE}}:grants:`;
  }

  private heartbeatPrefix(): string {
    return `webhook-in-flight:{${this.config.WEBHOOK_QUEUE}}:worker:`;
  }

  private contendedChannel(): string {
    return `webhook-in-flight:{${this.config.WEBHOOK_QUEUE}}:contended`;
  }

  private keys(webhookId: string): WebhookKeys {
    const base = `webhook-in-flight:{${this.config.WEBHOOK_QUEUE}}:${webhookId}`;
    return {
      leases: `${base}:leases`,
      parked: `${base}:parked`,
      woken: `${base}:woken`,
      timeouts: `${base}:timeouts`,
      pace: `${base}:pace`,
      paced: `${base}:paced`,
      wanting: `${base}:wanting`,
      freed: `${base}:freed`,
    };
  }
}
