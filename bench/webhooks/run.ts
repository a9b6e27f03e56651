/**
 * Webhook delivery throughput and latency: rows created through the gateway at a fixed rate, one or
 * five webhooks subscribed, a local receiver recording arrival times; beside the ceiling of one process
 * POSTing signed bodies of the same size to the same receiver. See bench/README.md for the setup.
 * Usage (with the bench stack running): node dist/bench/webhooks/run.js
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { ArrivalRecorder } from './receiver';

const ROOT = resolve(__dirname, '../../..');
const GATEWAY = new URL(process.env.BENCH_GATEWAY_URL ?? 'http://127.0.0.1:3000/v1');
const RATE = Number(process.env.BENCH_RATE ?? 500);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_MS ?? 60_000);
const CEILING_IN_FLIGHT = Number(process.env.BENCH_CEILING_IN_FLIGHT ?? 100);

const log = (line: string) => process.stdout.write(`${line}\n`);
const now = () => performance.now() + performance.timeOrigin;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function admin(...args: string[]): { id: string; key: string } {
  return JSON.parse(execFileSync(process.execPath, [resolve(ROOT, 'dist/apps/admin/src/main.js'), ...args], { env: process.env }).toString());
}

const gateway = new Pool(GATEWAY.origin, { connections: 64, pipelining: 1 });

interface ApiAnswer {
  data: { id: string };
}

async function api(key: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer> {
  const res = await gateway.request({
    method,
    path: `${GATEWAY.pathname}${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.body.json()) as ApiAnswer;
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Scenario {
  label: string;
  webhooks: number;
  rate: number;
  created: number;
  createdPerSecond: number;
  createErrors: number;
  deliveries: number;
  expected: number;
  deliveriesPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
}

/** Creates rows at `rate` per second for the duration; each row's create response time is kept by row id. */
async function createRows(key: string, tableId: string, rate: number, responses: Map<string, number>): Promise<{ created: number; errors: number }> {
  const tickMs = 10;
  const total = Math.round(rate * DURATION_S);
  const started = now();
  let issued = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  while (issued < total) {
    const due = Math.min(total, Math.floor(((now() - started) / 1000) * rate));
    for (; issued < due; issued += 1) {
      inFlight.push(
        api(key, 'POST', `/tables/${tableId}/rows`, { data: { title: `row ${issued}` } }).then(
          (response) => void responses.set(response.data.id, now()),
          () => void (errors += 1),
        ),
      );
    }
    await sleep(tickMs);
  }
  await Promise.all(inFlight);
  return { created: responses.size, errors };
}

async function scenario(label: string, key: string, tableId: string, receiver: ArrivalRecorder, port: number, webhookCount: number, rate: number): Promise<Scenario> {
  const hooks: string[] = [];
  for (let i = 0; i < webhookCount; i += 1) {
    hooks.push((await api(key, 'POST', '/webhooks', { name: `bench ${label} ${i}`, url: `http://127.0.0.1:${port}/hook-${i}`, events: ['row.created'] })).data.id);
  }
  receiver.reset();
  const responses = new Map<string, number>();
  log(`${label}: ${webhookCount} webhook(s), rows at ${rate}/s for ${DURATION_S}s ...`);
  const createStarted = now();
  const { created, errors } = await createRows(key, tableId, rate, responses);
  const createdPerSecond = Math.round(created / ((now() - createStarted) / 1000));
  const expected = created * webhookCount;
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (receiver.arrivals.length < expected && Date.now() < deadline) await sleep(100);
  for (const id of hooks) await api(key, 'DELETE', `/webhooks/${id}`);
  const arrivals = receiver.arrivals.filter((arrival) => responses.has(arrival.rowId));
  const latencies = arrivals.map((arrival) => arrival.at - (responses.get(arrival.rowId) as number)).sort((a, b) => a - b);
  const times = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
  const spanS = times.length > 1 ? (times[times.length - 1] - times[0]) / 1000 : NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  const result = {
    label,
    webhooks: webhookCount,
    rate,
    created,
    createdPerSecond,
    createErrors: errors,
    deliveries: arrivals.length,
    expected,
    deliveriesPerSecond: Math.round(arrivals.length / spanS),
    latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies[latencies.length - 1] ?? NaN) },
  };
  log(`  ${JSON.stringify(result)}`);
  return result;
}

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/** Starts one more delivery worker with the bench stack's environment; answers how to stop it. */
async function startExtraWorker(): Promise<() => Promise<void>> {
  const healthPort = await freePort();
  const child = spawn(process.execPath, [resolve(ROOT, 'dist/apps/webhook-dispatcher/src/worker.main.js')], {
    env: { ...process.env, HEALTH_PORT: String(healthPort), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100; i += 1) {
    const ready = await fetch(`http://127.0.0.1:${healthPort}/health/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    await sleep(100);
  }
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  };
}

/** Runs the ceiling client in a process of its own; the receiver keeps answering in this one. */
async function ceiling(port: number, bodyBytes: number): Promise<{ perSecond: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    resolve(__dirname, 'ceiling.js'),
    `http://127.0.0.1:${port}/ceiling`,
    String(bodyBytes),
    '5000',
    String(CEILING_IN_FLIGHT),
  ]);
  return JSON.parse(stdout);
}

async function main(): Promise<void> {
  const org = admin('org', 'create', '--name', `bench webhooks ${Date.now()}`, '--plan', '0');
  const { key } = admin('key', 'create', '--org', org.id, '--scopes', '*');
  const receiver = new ArrivalRecorder();
  const port = await receiver.listen();
  const tableId = (await api(key, 'POST', '/tables', { name: `bench webhooks ${Date.now()}`, fields: [{ name: 'Title', field_type: 'text' }] })).data.id;
  try {
    log('warming up ...');
    await scenario('warm-up', key, tableId, receiver, port, 1, 100);
    const results: Scenario[] = [];
    results.push(await scenario('1 webhook, 1 worker', key, tableId, receiver, port, 1, RATE));
    results.push(await scenario('5 webhooks, 1 worker', key, tableId, receiver, port, 5, RATE));
    const stopExtra = await startExtraWorker();
    try {
      results.push(await scenario('5 webhooks, 2 workers', key, tableId, receiver, port, 5, RATE));
    } finally {
      await stopExtra();
    }
    log(`ceiling: one process POSTing ${receiver.bodyBytes}-byte signed bodies, ${CEILING_IN_FLIGHT} in flight, 5s ...`);
    const limit = await ceiling(port, receiver.bodyBytes);
    const oneWorker = results[1].deliveriesPerSecond;
    const report = {
      date: new Date().toISOString(),
      rate: RATE,
      durationS: DURATION_S,
      scenarios: results,
      ceiling: limit,
      ratioOneWorkerToCeiling: Math.round((oneWorker / limit.perSecond) * 1000) / 1000,
      secondWorkerGain: Math.round((results[2].deliveriesPerSecond / oneWorker) * 100) / 100,
    };
    log(JSON.stringify(report, null, 2));
  } finally {
    await api(key, 'DELETE', `/tables/${tableId}`).catch(() => undefined);
    await receiver.close();
    await gateway.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
