/**
 * Row creates through the gateway beside the bare ceiling (as fast as they go, and at a fixed 1,000/s),
 * and list latency at growing table sizes.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import type { BenchOrg } from '../lib/bench-stack';
import { benchApi, log, percentile, round, timedGet } from '../lib/bench-http';
import { cpuMs } from '../lib/process-usage';
import { cpuPer, cpuUsed, UsageSampler } from '../lib/usage-sampler';
import { BatchRound, BatchRun, batchRun } from './batch-rounds';

export type { BatchRun };

const SELECT_VALUES = ['a', 'b', 'c', 'd', 'e'];
/** Issue 14: the page at depth 10,000 (limit 50), by cursor and by page. */
const DEEP_PAGE_DEPTH = 10_000;

export const ROW_FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Amount', field_type: 'number', options: { precision: 2 } },
  { name: 'Status', field_type: 'select', options: { values: SELECT_VALUES } },
  { name: 'Day', field_type: 'date' },
  { name: 'Done', field_type: 'checkbox' },
  { name: 'Email', field_type: 'email' },
];
const ROW = { data: { title: 'Benchmark row', amount: 1234.5, status: 'c', day: '2024-05-01', done: true, email: 'bench@example.com' } };

export interface RowsSettings {
  durationS: number;
  connections: number;
  fixedRate: number;
  /** The rate of commit-to-receipt's single creates: both servers are also driven at it, CPU read around each. */
  pacedRate: number;
  sizes: number[];
  listRequests: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface CreateFigures {
  gateway: LoadResult;
  bare: LoadResult;
  ratio: number;
  atFixedRate: { rate: number; gateway: LoadResult; bare: LoadResult };
  /** CPU ms per create, by process, while the gateway ran as fast as it goes. */
  cpuMsPerCreate: Record<string, number>;
  cpuMsPerBareCreate: Record<string, number>;
  /**
   * Both driven at commit-to-receipt's pace instead: a process woken for each request or two costs more per
   * request than one kept busy, by as much as the machine makes a wake-up cost, so the bare server's CPU per
   * create here is the reference for the stack's CPU per event at that pace.
   */
  atPace: { rate: number; gateway: LoadResult; bare: LoadResult; cpuMsPerCreate: Record<string, number>; cpuMsPerBareCreate: Record<string, number> };
}

export interface ListFigures {
  rows: number;
  unfiltered: { p50: number; p95: number; p99: number };
  filtered: { p50: number; p95: number; p99: number };
  /** The page at depth 10,000 (limit 50), reached by `cursor` and by `page`. */
  deep: { depth: number; cursor: { p50: number; p95: number; p99: number }; page: { p50: number; p95: number; p99: number } };
  /** CPU ms per request of page 1 unfiltered, by process (the load generator is this process). */
  cpuMsPerPage: Record<string, number>;
}

/** What a scenario measured beside the bare server needs: the stack, its organization, and a port for the bare server. */
export interface BesideBare {
  gatewayUrl: string;
  databaseUrl: string;
  org: BenchOrg;
  usage: UsageSampler;
  settings: RowsSettings;
  barePort: number;
}

export interface BatchCreateFigures {
  connections: number;
  rowsPerRequest: number;
  gateway: BatchRun;
  /** The same batches written by the bare server: rows and outbox entries in two statements, nothing else. */
  bare: BatchRun;
  ratio: number;
}

const BATCH_ROWS = 100;
const BATCH_CONNECTIONS = 10;

/**
 * Rounds in which the batch loads alternate, the stack's then the bare server's: a machine that slows from
 * one minute to the next (by 10-20% here) slows both alike, where one load after the other put the whole
 * change on one side of the ratio.
 */
const BATCH_ROUNDS = 3;
/** Seconds of each load before its rounds, not counted: every process runs the code V8 optimized for it, as the other loads do. */
const BATCH_WARM_UP_S = 3;

/** Where a batch-create load goes, and how the CPU of the processes it is measured by is read. */
interface BatchTarget {
  url: string;
  headers: Record<string, string>;
  cpu: () => Promise<Record<string, number>>;
}

/** One batch-create load against the target for `seconds`, as fast as it goes. */
async function batchRound({ url, headers, cpu }: BatchTarget, seconds: number): Promise<BatchRound> {
  const before = await cpu();
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ rows: Array.from({ length: BATCH_ROWS }, () => ROW) }),
    connections: BATCH_CONNECTIONS,
    duration: seconds,
  });
  const after = await cpu();
  return { requests: result.requests.total, seconds, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, used: cpuUsed(before, after) };
}

/**
 * Batch creates of 100 rows per request through the gateway, and through the bare server, each as fast as
 * it goes: both warmed up, then in BATCH_ROUNDS rounds that alternate between them.
 */
export function measureBatchCreates(run: BesideBare): Promise<BatchCreateFigures> {
  const { gatewayUrl, org, usage, settings, barePort } = run;
  return beside(run, 'batches', async (bare, tableId) => {
    const seconds = settings.durationS / BATCH_ROUNDS;
    log(
      `batch creates: ${BATCH_ROWS} rows per request, ${BATCH_CONNECTIONS} connections, through the gateway and the bare server in turn, ` +
        `${BATCH_ROUNDS} rounds of ${round(seconds, 1)}s each after ${BATCH_WARM_UP_S}s of each ...`,
    );
    const ours: BatchTarget = { url: `${gatewayUrl}/tables/${tableId}/rows/batch`, headers: { authorization: `Bearer ${org.key}` }, cpu: () => usage.cpu() };
    const theirs: BatchTarget = { url: `http://127.0.0.1:${barePort}/rows/batch`, headers: {}, cpu: async () => ({ ...(await usage.cpu()), bare: cpuMs(bare.pid) }) };
    await batchRound(ours, BATCH_WARM_UP_S);
    await batchRound(theirs, BATCH_WARM_UP_S);
    const rounds: { ours: BatchRound[]; theirs: BatchRound[] } = { ours: [], theirs: [] };
    for (let i = 0; i < BATCH_ROUNDS; i += 1) {
      rounds.ours.push(await batchRound(ours, seconds));
      rounds.theirs.push(await batchRound(theirs, seconds));
    }
    const gateway = batchRun(rounds.ours, BATCH_ROWS);
    const bareRun = batchRun(rounds.theirs, BATCH_ROWS);
    const bareCpu = bareRun.cpuMsPerThousandRows;
    return {
      connections: BATCH_CONNECTIONS,
      rowsPerRequest: BATCH_ROWS,
      gateway,
      bare: { ...bareRun, cpuMsPerThousandRows: { bare: bareCpu.bare, postgres: bareCpu.postgres } },
      ratio: round(gateway.rowsPerSecond / bareRun.rowsPerSecond, 3),
    };
  });
}

/** The cursor of the page that starts at `depth`, found by walking there once. */
async function cursorAtDepth(gatewayUrl: string, key: string, base: string, depth: number, limit: number): Promise<string> {
  let cursor = '';
  for (let seen = 0; seen < depth; seen += limit) {
    const res = await fetch(`${gatewayUrl}${base}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { pagination: { next_cursor: string | null } };
    if (!body.pagination.next_cursor) throw new Error(`the table ends before depth ${depth}`);
    cursor = body.pagination.next_cursor;
  }
  return cursor;
}

async function load(url: string, headers: Record<string, string>, durationS: number, connections: number, rate?: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(ROW),
    connections,
    duration: durationS,
    ...(rate ? { overallRate: rate } : {}),
  });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

async function startBare(databaseUrl: string, port: number): Promise<{ pid: number; stop: () => void }> {
  const child = spawn(process.execPath, [resolve(__dirname, 'bare-server.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready());
    child.once('exit', (code) => fail(new Error(`bare server exited with ${code}`)));
  });
  return { pid: child.pid as number, stop: () => child.kill('SIGTERM') };
}

/**
 * Creates through the gateway and through the bare server, each as fast as it goes, then both at the fixed
 * rate, then both at commit-to-receipt's pace.
 */
export function measureCreates(run: BesideBare): Promise<CreateFigures> {
  const { gatewayUrl, org, usage, settings, barePort } = run;
  return beside(run, 'creates', async (bare, tableId) => {
    const url = `${gatewayUrl}/tables/${tableId}/rows`;
    const auth = { authorization: `Bearer ${org.key}` };
    const bareUrl = `http://127.0.0.1:${barePort}/rows`;
    const cpuNow = async () => ({ ...(await usage.cpu()), bare: cpuMs(bare.pid) });
    /** A load with the CPU per create around it: of the stack's processes, or of the bare server and Postgres. */
    const measured = async (of: 'stack' | 'bare', rate?: number) => {
      const before = await cpuNow();
      const result = await load(of === 'stack' ? url : bareUrl, of === 'stack' ? auth : {}, settings.durationS, settings.connections, rate);
      const { bare: bareMs = 0, ...stack } = cpuPer(before, await cpuNow(), result.rps * settings.durationS);
      return { result, cpuMsPerCreate: of === 'stack' ? stack : { bare: bareMs, postgres: stack.postgres ?? 0 } };
    };
    log('creates: warming up both ...');
    await load(url, auth, 3, 10);
    await load(bareUrl, {}, 3, 10);
    log(`creates: ${settings.connections} connections, ${settings.durationS}s each, as fast as they go ...`);
    const gateway = await measured('stack');
    const bareMax = await measured('bare');
    log(`creates: at a fixed ${settings.fixedRate}/s ...`);
    const gatewayFixed = await load(url, auth, settings.durationS, settings.connections, settings.fixedRate);
    const bareFixed = await load(bareUrl, {}, settings.durationS, settings.connections, settings.fixedRate);
    log(`creates: at commit-to-receipt's ${settings.pacedRate}/s ...`);
    const paced = await measured('stack', settings.pacedRate);
    const barePaced = await measured('bare', settings.pacedRate);
    return {
      gateway: gateway.result,
      bare: bareMax.result,
      ratio: round(gateway.result.rps / bareMax.result.rps, 3),
      atFixedRate: { rate: settings.fixedRate, gateway: gatewayFixed, bare: bareFixed },
      cpuMsPerCreate: gateway.cpuMsPerCreate,
      cpuMsPerBareCreate: bareMax.cpuMsPerCreate,
      atPace: { rate: settings.pacedRate, gateway: paced.result, bare: barePaced.result, cpuMsPerCreate: paced.cpuMsPerCreate, cpuMsPerBareCreate: barePaced.cpuMsPerCreate },
    };
  });
}

/** Runs `work` with the bare server started on `barePort` and a fresh table of the bench's fields; removes both after. */
async function beside<T>(run: BesideBare, label: string, work: (bare: { pid: number }, tableId: string) => Promise<T>): Promise<T> {
  const api = benchApi(run.gatewayUrl, run.org.key);
  const bare = await startBare(run.databaseUrl, run.barePort);
  try {
    const tableId = (await api('POST', '/tables', { name: `bench ${label} ${Date.now()}`, fields: ROW_FIELDS })).data.id as string;
    try {
      return await work(bare, tableId);
    } finally {
      await api('DELETE', `/tables/${tableId}`).catch(() => undefined);
    }
  } finally {
    bare.stop();
  }
}

/** Latency of one GET, `requests` times with 4 in flight; answers p50/p95/p99 in ms. */
export async function listLatency(gatewayUrl: string, key: string, path: string, requests: number): Promise<ListFigures['unfiltered']> {
  const timings: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next += 1;
      const started = performance.now();
      const status = await timedGet(`${gatewayUrl}${path}`, { authorization: `Bearer ${key}` });
      if (status !== 200) throw new Error(`GET ${path}: ${status}`);
      timings.push(performance.now() - started);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  timings.sort((a, b) => a - b);
  return { p50: round(percentile(timings, 50), 1), p95: round(percentile(timings, 95), 1), p99: round(percentile(timings, 99), 1) };
}

/** Fills a table created through the API straight in SQL: pushing a million rows through HTTP would take the whole run. */
export async function seed(db: Client, tableId: string, rows: number): Promise<void> {
  const { rows: fields } = await db.query('SELECT slug, column_name FROM tables.fields WHERE table_id = $1', [tableId]);
  const column = Object.fromEntries(fields.map((f: { slug: string; column_name: string }) => [f.slug, `"${f.column_name}"`]));
  const { rows: [table] } = await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId]);
  await db.query(
    `INSERT INTO tables."${table.storage_name}" (id, created_at, updated_at, ${column.title}, ${column.amount}, ${column.status}, ${column.day}, ${column.done}, ${column.email})
     SELECT gen_random_uuid(), now() - g * interval '1 second', now(), 'row ' || g, round((random() * 1000000)::numeric, 2),
       ($2::text[])[1 + g % 5], date '2000-01-01' + g % 9000, g % 2 = 0, 'user' || g || '@example.com'
     FROM generate_series(1, $1::int) g`,
    [rows, SELECT_VALUES],
  );
  await db.query('UPDATE tables.row_counts SET n = n + $2 WHERE table_id = $1 AND slot = 0', [tableId, rows]);
  await db.query(`VACUUM ANALYZE tables."${table.storage_name}"`);
}

/** Page 1 of 50 sorted by the number field, without and with a filter matching 20% of the rows, at each size. */
export async function measureLists(gatewayUrl: string, databaseUrl: string, org: BenchOrg, usage: UsageSampler, settings: RowsSettings): Promise<ListFigures[]> {
  const api = benchApi(gatewayUrl, org.key);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const figures: ListFigures[] = [];
  try {
    for (const size of settings.sizes) {
      const tableId = (await api('POST', '/tables', { name: `bench list ${size} ${Date.now()}`, fields: ROW_FIELDS })).data.id as string;
      try {
        log(`lists: seeding ${size} rows ...`);
        await seed(db, tableId, size);
        const base = `/tables/${tableId}/rows?sort=amount&order=asc&limit=50`;
        await listLatency(gatewayUrl, org.key, base, 20);
        const cpuBefore = { ...(await usage.cpu()), 'load generator': cpuMs(process.pid) };
        const unfiltered = await listLatency(gatewayUrl, org.key, base, settings.listRequests);
        const cpuAfter = { ...(await usage.cpu()), 'load generator': cpuMs(process.pid) };
        const filtered = await listLatency(gatewayUrl, org.key, `${base}&filter=${encodeURIComponent(JSON.stringify({ status: 'a' }))}`, settings.listRequests);
        const depth = Math.min(DEEP_PAGE_DEPTH, size - 50);
        const cursor = await cursorAtDepth(gatewayUrl, org.key, base, depth, 50);
        const deep = {
          depth,
          cursor: await listLatency(gatewayUrl, org.key, `${base}&cursor=${encodeURIComponent(cursor)}`, settings.listRequests),
          page: await listLatency(gatewayUrl, org.key, `${base}&page=${depth / 50 + 1}`, settings.listRequests),
        };
        figures.push({ rows: size, unfiltered, filtered, deep, cpuMsPerPage: cpuPer(cpuBefore, cpuAfter, settings.listRequests) });
        log(`lists: ${size} rows: unfiltered p95 ${unfiltered.p95} ms, filtered p95 ${filtered.p95} ms`);
      } finally {
        await api('DELETE', `/tables/${tableId}`).catch(() => undefined);
      }
    }
  } finally {
    await db.end();
  }
  return figures;
}
