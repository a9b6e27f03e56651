/**
 * Row throughput and list latency through the gateway, beside a bare Fastify + pg ceiling.
 * Usage (with the stack running, see bench/README.md): node dist/bench/rows/run.js
 */
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '../../..');
const GATEWAY = process.env.BENCH_GATEWAY_URL ?? 'http://127.0.0.1:3000/v1';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/platform_bench';
const DURATION = Number(process.env.BENCH_DURATION_S ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SIZES = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 400);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3999);
const SELECT_VALUES = ['a', 'b', 'c', 'd', 'e'];

const FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Amount', field_type: 'number', options: { precision: 2 } },
  { name: 'Status', field_type: 'select', options: { values: SELECT_VALUES } },
  { name: 'Day', field_type: 'date' },
  { name: 'Done', field_type: 'checkbox' },
  { name: 'Email', field_type: 'email' },
];
const ROW = { data: { title: 'Benchmark row', amount: 1234.5, status: 'c', day: '2024-05-01', done: true, email: 'bench@example.com' } };

const log = (line: string) => process.stdout.write(`${line}\n`);

function admin(...args: string[]): any {
  const out = execFileSync(process.execPath, [resolve(ROOT, 'dist/apps/admin/src/main.js'), ...args], { env: { ...process.env, DATABASE_URL } });
  return JSON.parse(out.toString());
}

async function api(key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${GATEWAY}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, rate?: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(ROW),
    connections: CONNECTIONS,
    duration: DURATION,
    ...(rate ? { overallRate: rate } : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Latency of one GET, `LIST_REQUESTS` times with 4 in flight; answers p50/p95/p99 in ms. */
async function listLatency(key: string, path: string): Promise<{ p50: number; p95: number; p99: number }> {
  const timings: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < LIST_REQUESTS) {
      next += 1;
      const started = performance.now();
      const res = await fetch(`${GATEWAY}${path}`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      timings.push(performance.now() - started);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  timings.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(percentile(timings, 50)), p95: round(percentile(timings, 95)), p99: round(percentile(timings, 99)) };
}

/** Seeds a table created through the API straight in SQL: pushing a million rows through HTTP would take the whole run. */
async function seed(db: Client, tableId: string, rows: number): Promise<void> {
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

async function startBare(): Promise<() => void> {
  const child = spawn(process.execPath, [resolve(__dirname, 'bare-server.js')], { env: { ...process.env, DATABASE_URL, PORT: String(BARE_PORT) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready());
    child.once('exit', (code) => fail(new Error(`bare server exited with ${code}`)));
  });
  return () => child.kill('SIGTERM');
}

async function main(): Promise<void> {
  const org = admin('org', 'create', '--name', `bench ${Date.now()}`, '--plan', '0');
  const { key } = admin('key', 'create', '--org', org.id, '--scopes', '*');
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const stopBare = await startBare();
  const created: string[] = [];
  try {
    const target = (await api(key, 'POST', '/tables', { name: `bench creates ${Date.now()}`, fields: FIELDS })).data.id;
    created.push(target);
    const auth = { authorization: `Bearer ${key}` };
    log(`warming up ...`);
    await autocannon({ url: `${GATEWAY}/tables/${target}/rows`, method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(ROW), connections: 10, duration: 3 });
    log(`creates, ${CONNECTIONS} connections, ${DURATION}s, as fast as they go ...`);
    const gatewayMax = await load(`${GATEWAY}/tables/${target}/rows`, auth);
    const bareMax = await load(`http://127.0.0.1:${BARE_PORT}/rows`, {});
    log(`creates at a fixed 1,000/s ...`);
    const gatewayFixed = await load(`${GATEWAY}/tables/${target}/rows`, auth, 1_000);
    const bareFixed = await load(`http://127.0.0.1:${BARE_PORT}/rows`, {}, 1_000);

    const lists: Record<string, unknown>[] = [];
    for (const size of SIZES) {
      const tableId = (await api(key, 'POST', '/tables', { name: `bench list ${size} ${Date.now()}`, fields: FIELDS })).data.id;
      created.push(tableId);
      log(`seeding ${size} rows ...`);
      await seed(db, tableId, size);
      const base = `/tables/${tableId}/rows?sort=amount&order=asc&limit=50`;
      const unfiltered = await listLatency(key, base);
      const filtered = await listLatency(key, `${base}&filter=${encodeURIComponent(JSON.stringify({ status: 'a' }))}`);
      lists.push({ rows: size, unfiltered, filtered });
    }

    const report = {
      date: new Date().toISOString(),
      creates: { gateway: gatewayMax, bare: bareMax, ratio: Math.round((gatewayMax.rps / bareMax.rps) * 1000) / 1000 },
      createsAt1000: { gateway: gatewayFixed, bare: bareFixed },
      lists,
    };
    log(JSON.stringify(report, null, 2));
  } finally {
    stopBare();
    for (const id of created) await api(key, 'DELETE', `/tables/${id}`).catch(() => undefined);
    await db.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
