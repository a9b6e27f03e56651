/**
 * Webhook deliveries: commit-to-receipt latency at a fixed create rate with one webhook; the delivery
 * rate of one and of two worker processes draining a backlog for five webhooks; beside the ceiling of
 * one process POSTing signed bodies of the same size to the same receiver.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Pool } from 'undici';
import type { BenchOrg, BenchStack } from '../lib/bench-stack';
import { benchApi, log, percentile, round, sleep } from '../lib/bench-http';
import { cpuMs } from '../lib/process-usage';
import { cpuPer, UsageSampler } from '../lib/usage-sampler';
import { commitToReceipt, createAtRate } from './create-at-rate';
import { ArrivalRecorder } from './receiver';
import { deliveryStages } from './stages';

const BATCH_ROWS = 100;

export interface WebhooksSettings {
  latencyRate: number;
  latencyDurationS: number;
  /**
   * How long the commit-to-receipt phases are preceded by the same load, not counted: long enough that every
   * process runs the code V8 optimized for it and that the queue a cold start leaves (the first attempts of a
   * fresh worker take hundreds of milliseconds) has drained, so the phase measures the pipeline as a service
   * that has been up runs it. A load the pipeline cannot keep up with still shows: its queue only grows.
   */
  warmUpS: number;
  /** The sustained phase: events per second from batch creates, and for how long. */
  sustainedRate: number;
  sustainedDurationS: number;
  backlogRows: number;
  drainTimeoutMs: number;
  ceilingInFlight: number;
}

/** Rows per request when the same events come from batch creates (50 requests/s at 500 rows/s). */
const LATENCY_BATCH_ROWS = 10;

export interface LatencyFigures {
  rate: number;
  /** 1: one `POST .../rows` per row; more: `POST .../rows/batch` of that many rows. */
  rowsPerRequest: number;
  created: number;
  createdPerSecond: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  /**
   * From the last create's answer to the last arrival: what was left to deliver when the load stopped. A
   * pipeline that keeps up leaves a commit-to-receipt's worth; one that falls behind, the backlog it built.
   */
  drainMs: number;
  /** CPU ms per event, by process, from the first create to the last arrival. */
  cpuMsPerEvent: Record<string, number>;
  /** Times each process was put on a CPU per event (its wake-ups), over the same span. */
  runsPerEvent: Record<string, number>;
  /** CPU ms per event of this process, the load generator and the receiver, on the same cores over the same span. */
  loadGeneratorCpuMsPerEvent: number;
  /** Where the time went, stage by stage, from the stack's own records (deliveryStages): p50 / p99 of each. */
  stages: Record<string, string>;
}

export interface DrainFigures {
  workers: number;
  webhooks: number;
  deliveries: number;
  expected: number;
  duplicates: number;
  deliveriesPerSecond: number;
  /** CPU ms per delivery, by process, while the backlog drained. */
  cpuMsPerDelivery: Record<string, number>;
}

export interface WebhookFigures {
  latency: LatencyFigures;
  /** The same event rate written by batch creates, so that the create path is not what limits it. */
  batchedLatency: LatencyFigures;
  /** A higher event rate from batch creates held for a minute: whether deliveries keep up (`drainMs`). */
  sustained?: LatencyFigures;
  /** CPU ms per delivery job, by process, from the create to the job in the queue (gateway, tables, relay, fan-out). */
  cpuMsPerQueuedJob: Record<string, number>;
  oneWorker: DrainFigures;
  twoWorkers: DrainFigures;
  /** The signed-POST process: its rate, and its own CPU per request (the reference for the worker's CPU per delivery). */
  ceiling: { perSecond: number; inFlight: number; bodyBytes: number; cpuMsPerRequest: number };
  ratioOneWorkerToCeiling: number;
  secondWorkerGain: number;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The deliveries the queue's waiting jobs hold: each job's own and the ones it carries (`more`). */
async function waitingDeliveries(queue: Queue): Promise<number> {
  const jobs = await queue.getWaiting(0, -1);
  return jobs.reduce((sum, job) => sum + 1 + ((job.data as { more?: unknown[] }).more?.length ?? 0), 0);
}

/** Calls so far by Redis command (`INFO commandstats`); a Lua script counts as evalsha, its own calls apart. */
async function redisCalls(redis: IORedis): Promise<Record<string, number>> {
  const text = await redis.info('commandstats');
  return Object.fromEntries([...text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, calls]) => [name, Number(calls)]));
}

/** The Redis calls between two readings of `redisCalls`, by command, per operation (those of at least 0.01). */
function callsPer(before: Record<string, number>, after: Record<string, number>, operations: number): string {
  const per = Object.entries(after).map(([name, calls]) => [name, (calls - (before[name] ?? 0)) / operations] as const).filter(([, n]) => n >= 0.01);
  return per.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', ');
}

/** The worker's delivery outcomes so far (its `webhook_deliveries_total`), as `outcome=count` pairs. */
async function workerOutcomes(healthPort: number): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  const pairs = [...text.matchAll(/^webhook_deliveries_total\{outcome="(\w+)"\} (\d+)/gm)].map(([, outcome, count]) => `${outcome}=${count}`);
  const sum = (name: string) => [...text.matchAll(new RegExp(`^webhook_attempt_duration_seconds_${name}\\{[^}]*\\} ([0-9.e+-]+)`, 'gm'))].reduce((total, [, value]) => total + Number(value), 0);
  // The percentiles count the sampling period in; their minimum is that period.
  const gauge = (name: string) => Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? 0);
  const lag = gauge('p99') - gauge('min');
  return `${pairs.join(' ')} attempts=${sum('count')} attempt_seconds=${sum('sum').toFixed(3)} loop_lag_p99_ms=${(lag * 1000).toFixed(1)}`;
}

/**
 * `BENCH_WEBHOOK_TRACE=1`: every 250 ms through a latency phase, the rows answered, the deliveries arrived, the
 * delivery queue's waiting, active and delayed (parked or paced) jobs and the worker's delivery outcomes so far,
 * printed on stderr: where a backlog stands.
 */
function traceQueue(queue: Queue, receiver: ArrivalRecorder, responses: ReadonlyMap<string, number>, workerHealthPort: number): { stop: () => void } {
  const started = Date.now();
  const timer = setInterval(() => {
    void Promise.all([queue.getJobCounts('wait', 'active', 'delayed'), workerOutcomes(workerHealthPort).catch(() => '')]).then(([counts, outcomes]) => {
      process.stderr.write(
        `trace ${new Date().toISOString().slice(11, 23)} ${((Date.now() - started) / 1000).toFixed(2)}s created ${responses.size} arrived ${receiver.arrivals.length} wait ${counts.wait} active ${counts.active} delayed ${counts.delayed} ${outcomes}\n`,
      );
    });
  }, 250);
  return { stop: () => clearInterval(timer) };
}

/**
 * `BENCH_WEBHOOK_TRACE=1`: every 250 ms through a drain, the deliveries arrived, the queue's waiting, active and
 * delayed jobs, each worker's outcomes so far, and the webhooks' slots in Redis (leased, parked, woken, in line).
 */
function traceDrain(queue: Queue, redis: IORedis, receiver: ArrivalRecorder, webhookIds: readonly string[], workerHealthPorts: readonly number[]): { stop: () => void } {
  const started = Date.now();
  const lists = ['leases', 'parked', 'woken', 'wanting'] as const;
  const timer = setInterval(() => {
    void Promise.all([
      queue.getJobCounts('wait', 'active', 'delayed'),
      Promise.all(workerHealthPorts.map((port) => workerOutcomes(port).catch(() => ''))),
      Promise.all(lists.map(async (list) => (await Promise.all(webhookIds.map((id) => redis.zcard(`webhook-in-flight:{${queue.name}}:${id}:${list}`)))).join('/'))),
    ]).then(([counts, outcomes, slots]) => {
      const listed = lists.map((list, i) => `${list} ${slots[i]}`).join(' ');
      const workers = outcomes.map((text, i) => `w${i + 1}[${text.replace(/ attempt_seconds=\S+/, '')}]`).join(' ');
      process.stderr.write(`trace ${((Date.now() - started) / 1000).toFixed(2)}s arrived ${receiver.arrivals.length} wait ${counts.wait} active ${counts.active} delayed ${counts.delayed} ${listed} ${workers}\n`);
    });
  }, 250);
  return { stop: () => clearInterval(timer) };
}

export async function measureWebhooks(stack: BenchStack, org: BenchOrg, usage: UsageSampler, settings: WebhooksSettings): Promise<WebhookFigures> {
  const api = benchApi(stack.gatewayUrl, org.key);
  const base = new URL(stack.gatewayUrl);
  const gateway = new Pool(base.origin, { connections: 64 });
  const redis = new IORedis(stack.env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(stack.env.WEBHOOK_QUEUE, { connection: redis });
  const receiver = new ArrivalRecorder();
  const port = await receiver.listen();
  const tableId = (await api('POST', '/tables', { name: `bench webhooks ${Date.now()}`, fields: [{ name: 'Title', field_type: 'text' }] })).data.id as string;
  const subscribe = async (count: number, label: string) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      ids.push((await api('POST', '/webhooks', { name: `bench ${label} ${i}`, url: `http://127.0.0.1:${port}/${label}-${i}`, events: ['row.created'] })).data.id);
    }
    return ids;
  };
  const unsubscribe = async (ids: string[]) => {
    for (const id of ids) await api('DELETE', `/webhooks/${id}`);
  };

  /**
   * The webhook of the commit-to-receipt phases, rows at the fixed rate: how long from the create's answer to
   * the receiver. One webhook through the warm-up and both phases, as a webhook that has been up is.
   */
  const latencyHooks = await subscribe(1, 'latency');
  const latency = async (rate: number, durationS: number, rowsPerRequest = 1): Promise<LatencyFigures> => {
    receiver.reset();
    const responses = new Map<string, number>();
    const trace = process.env.BENCH_WEBHOOK_TRACE ? traceQueue(queue, receiver, responses, stack.process('webhooks-worker').healthPort) : undefined;
    const before = await usage.cpu();
    const ownBefore = cpuMs(process.pid);
    const runsBefore = await usage.runs();
    const commandsBefore = trace ? await redisCalls(redis) : undefined;
    if (trace) await redis.config('SET', 'latency-monitor-threshold', '20').then(() => redis.latency('RESET'));
    const { seconds } = await createAtRate(gateway, base, org.key, tableId, rate, durationS, responses, rowsPerRequest);
    await waitFor(() => receiver.arrivals.length >= responses.size, settings.drainTimeoutMs, 'latency deliveries').catch(() => undefined);
    const cpuMsPerEvent = cpuPer(before, await usage.cpu(), responses.size);
    const loadGeneratorCpuMsPerEvent = round((cpuMs(process.pid) - ownBefore) / responses.size, 3);
    const runsPerEvent = cpuPer(runsBefore, await usage.runs(), responses.size);
    trace?.stop();
    if (commandsBefore) {
      log(`trace: Redis calls per event ${callsPer(commandsBefore, await redisCalls(redis), responses.size)}`);
      const persistence = await redis.info('persistence');
      log(`trace: Redis stalls over 20 ms ${JSON.stringify(await redis.latency('LATEST'))}, ${/aof_delayed_fsync:\d+/.exec(persistence)?.[0] ?? 'no AOF'}`);
    }
    const stages = await deliveryStages(stack.databaseUrl, '/latency-0', responses, receiver.arrivals);
    const latencies = commitToReceipt(receiver.arrivals, responses);
    // Folded, not spread: a minute's events are more arguments than a call takes.
    const lastArrival = receiver.arrivals.reduce((last, arrival) => (responses.has(arrival.rowId) ? Math.max(last, arrival.at) : last), -Infinity);
    const lastResponse = [...responses.values()].reduce((last, at) => Math.max(last, at), -Infinity);
    return {
      rate,
      rowsPerRequest,
      created: responses.size,
      createdPerSecond: Math.round(responses.size / seconds),
      deliveries: latencies.length,
      expected: responses.size,
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(latencies[latencies.length - 1] ?? NaN, 1),
      drainMs: round(lastArrival - lastResponse, 1),
      cpuMsPerEvent,
      loadGeneratorCpuMsPerEvent,
      runsPerEvent,
      stages,
    };
  };

  let queuedJobCpu: Record<string, number> = {};
  /**
   * Five webhooks; the queue is paused while a backlog of deliveries builds, then the workers drain it. A
   * backlog a quarter the size goes first, not counted: the worker started for the phase (and the one that
   * ran only the commit-to-receipt phases' single webhook) then runs the code V8 optimized for a drain, as
   * workers that have been up do.
   */
  const drain = async (workers: number): Promise<DrainFigures> => {
    const webhooks = 5;
    const hooks = await subscribe(webhooks, `drain${workers}`);
    const extra = workers > 1 ? await stack.extraWorker() : undefined;
    const workerPorts = [stack.process('webhooks-worker').healthPort, ...(extra ? [extra.healthPort] : [])];
    const backlog = async (rows: number, counted: boolean): Promise<DrainFigures> => {
      await queue.pause();
      receiver.reset();
      const expected = rows * webhooks;
      const before = await usage.cpu();
      for (let made = 0; made < rows; made += BATCH_ROWS * 4) {
        await Promise.all(
          Array.from({ length: 4 }, (_, i) => Math.min(BATCH_ROWS, rows - made - i * BATCH_ROWS))
            .filter((n) => n > 0)
            .map((n) => api('POST', `/tables/${tableId}/rows/batch`, { rows: Array.from({ length: n }, (_, j) => ({ data: { title: `backlog ${made + j}` } })) })),
        );
      }
      // Polled once the jobs stop growing in number (reading every job's data costs Redis and this process).
      let jobs = -1;
      await waitFor(
        async () => {
          const now = await queue.getWaitingCount();
          const settled = now === jobs;
          jobs = now;
          return settled && (await waitingDeliveries(queue)) >= expected;
        },
        settings.drainTimeoutMs,
        'the backlog in the queue',
      );
      if (counted && workers === 1) queuedJobCpu = cpuPer(before, await usage.cpu(), expected);
      const drainBefore = await usage.cpu();
      const trace = counted && process.env.BENCH_WEBHOOK_TRACE ? traceDrain(queue, redis, receiver, hooks, workerPorts) : undefined;
      const commandsBefore = trace ? await redisCalls(redis) : undefined;
      await queue.resume();
      await waitFor(() => receiver.arrivals.length >= expected, settings.drainTimeoutMs, 'the backlog delivered').catch(() => undefined);
      const drainAfter = await usage.cpu();
      trace?.stop();
      if (commandsBefore) log(`trace: Redis calls per delivery ${callsPer(commandsBefore, await redisCalls(redis), receiver.arrivals.length)}`);
      if (trace) {
        for (const [i, port] of workerPorts.entries()) log(`trace: worker ${i + 1} outcomes so far ${await workerOutcomes(port).catch(() => '')}`);
        const at = receiver.arrivals.map((a) => a.at).sort((a, b) => a - b);
        const since = (q: number) => ((at[Math.min(at.length - 1, Math.floor(q * at.length))] - at[0]) / 1000).toFixed(2);
        log(`trace: arrivals by 50% / 99% / 99.9% / all at ${since(0.5)} / ${since(0.99)} / ${since(0.999)} / ${since(1)} s`);
        const perQuarter = new Array<number>(Math.floor((at[at.length - 1] - at[0]) / 250) + 1).fill(0);
        for (const t of at) perQuarter[Math.floor((t - at[0]) / 250)] += 1;
        log(`trace: arrivals per 250 ms ${perQuarter.join(' ')}`);
      }
      const times = receiver.arrivals.map((a) => a.at).sort((a, b) => a - b);
      const seconds = (times[times.length - 1] - times[0]) / 1000;
      const unique = new Set(receiver.arrivals.map((a) => `${a.path}|${a.rowId}`)).size;
      const figures = {
        workers,
        webhooks,
        deliveries: receiver.arrivals.length,
        expected,
        duplicates: receiver.arrivals.length - unique,
        deliveriesPerSecond: Math.round(receiver.arrivals.length / seconds),
        cpuMsPerDelivery: cpuPer(drainBefore, drainAfter, receiver.arrivals.length),
      };
      log(`webhooks: ${workers} worker(s) drained ${figures.deliveries}/${expected} at ${figures.deliveriesPerSecond}/s${counted ? '' : ' (warm-up, not counted)'}`);
      return figures;
    };
    try {
      await backlog(Math.max(BATCH_ROWS, Math.round(settings.backlogRows / 4)), false);
      return await backlog(settings.backlogRows, true);
    } finally {
      await queue.resume();
      await extra?.stop(15_000);
      await unsubscribe(hooks);
    }
  };

  try {
    log(`webhooks: warming up, rows at ${settings.latencyRate}/s for ${settings.warmUpS}s (not counted) ...`);
    await latency(settings.latencyRate, settings.warmUpS);
    log(`webhooks: 1 webhook, rows at ${settings.latencyRate}/s for ${settings.latencyDurationS}s ...`);
    const latencyFigures = await latency(settings.latencyRate, settings.latencyDurationS);
    log(`webhooks: commit-to-receipt p50 ${latencyFigures.p50} ms, p99 ${latencyFigures.p99} ms`);
    log(`webhooks: 1 webhook, rows at ${settings.latencyRate}/s in batches of ${LATENCY_BATCH_ROWS} for ${settings.latencyDurationS}s ...`);
    const batchedLatency = await latency(settings.latencyRate, settings.latencyDurationS, LATENCY_BATCH_ROWS);
    log(`webhooks: commit-to-receipt p50 ${batchedLatency.p50} ms, p99 ${batchedLatency.p99} ms`);
    log(`webhooks: 1 webhook, rows at ${settings.sustainedRate}/s in batches of ${LATENCY_BATCH_ROWS} for ${settings.sustainedDurationS}s ...`);
    const sustained = await latency(settings.sustainedRate, settings.sustainedDurationS, LATENCY_BATCH_ROWS);
    log(`webhooks: commit-to-receipt p50 ${sustained.p50} ms, p99 ${sustained.p99} ms, the last event ${sustained.drainMs} ms after the last create`);
    await unsubscribe(latencyHooks);
    log(`webhooks: 5 webhooks, a backlog of ${settings.backlogRows * 5} deliveries, 1 worker ...`);
    const oneWorker = await drain(1);
    log(`webhooks: the same with a second worker process ...`);
    const twoWorkers = await drain(2);
    log(`webhooks: ceiling, one process POSTing ${receiver.bodyBytes}-byte signed bodies, ${settings.ceilingInFlight} in flight ...`);
    const { stdout } = await promisify(execFile)(process.execPath, [
      resolve(__dirname, 'ceiling.js'),
      `http://127.0.0.1:${port}/ceiling`,
      String(receiver.bodyBytes),
      '5000',
      String(settings.ceilingInFlight),
    ]);
    const ceiling = JSON.parse(stdout) as { perSecond: number; cpuMsPerRequest: number };
    return {
      latency: latencyFigures,
      batchedLatency,
      sustained,
      cpuMsPerQueuedJob: queuedJobCpu,
      oneWorker,
      twoWorkers,
      ceiling: { perSecond: ceiling.perSecond, inFlight: settings.ceilingInFlight, bodyBytes: receiver.bodyBytes, cpuMsPerRequest: ceiling.cpuMsPerRequest },
      ratioOneWorkerToCeiling: round(oneWorker.deliveriesPerSecond / ceiling.perSecond, 3),
      secondWorkerGain: round(twoWorkers.deliveriesPerSecond / oneWorker.deliveriesPerSecond, 2),
    };
  } finally {
    await api('DELETE', `/tables/${tableId}`).catch(() => undefined);
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    redis.disconnect();
    await receiver.close();
    await gateway.close();
  }
}
