/**
 * Data in and out: a 1,000,000-row CSV import beside a COPY of the same file into a table with the same
 * fields and indexes, and an export of the imported table beside a plain COPY TO of it, in the same run;
 * peak RSS of every process during both; the latency of another organization's list meanwhile.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { BenchOrg, BenchStack } from '../lib/bench-stack';
import { benchApi, log, percentile, round, sleep, timedGet } from '../lib/bench-http';
import { cpuMs } from '../lib/process-usage';
import { cpuPer, UsageSampler } from '../lib/usage-sampler';
import { listLatency, ListFigures, ROW_FIELDS, seed } from '../rows/scenarios';

export interface DataSettings {
  rows: number;
}

type Latency = ListFigures['unfiltered'];

export interface TransferFigures {
  /** From the job's start to its end, as the job's own timestamps say (the wait for a claim left out). */
  seconds: number;
  /** The same rows by COPY, in this run. */
  ceilingSeconds: number;
  ratio: number;
  rowsPerSecond: number;
  /** CPU ms per 1,000 rows, by process, while the job ran (with the list beside it; the bench process is its load generator). */
  cpuMsPerThousandRows: Record<string, number>;
  ceilingCpuMsPerThousandRows: Record<string, number>;
  /** p50/p95/p99 of a page-1 list of another organization's 10,000-row table, one every 50 ms, while the job ran. */
  otherOrgList: Latency;
}

export interface DataFigures {
  rows: number;
  fileMiB: number;
  /** The other organization's list with nothing else running (200 of them, 50 ms apart). */
  quietList: Latency;
  import: TransferFigures;
  export: TransferFigures;
  /** Peak RSS of each process while the import and the export ran. */
  peakMiB: Record<string, number>;
}

const STATUSES = ['a', 'b', 'c', 'd', 'e'];
const LIST_PAUSE_MS = 50;
/** A p99 needs a few hundred samples, however short the job. */
const MIN_LIST_SAMPLES = 200;

/** The bench's six fields, a line a row, as a spreadsheet would save them. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('title,amount,status,day,done,email\n');
  for (let i = 1; i <= rows; i += 1) {
    const day = new Date(Date.UTC(2000, 0, 1 + (i % 9000))).toISOString().slice(0, 10);
    const line = `row ${i},${(i * 7919) % 1_000_000}.${i % 100},${STATUSES[i % 5]},${day},${i % 2 === 0},user${i}@example.com\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** PUTs the file to a presigned URL, streamed. */
function putFile(url: string, headers: Record<string, string>, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const put = request(url, { method: 'PUT', headers: { ...headers, 'content-length': String(statSync(file).size) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT: ${res.statusCode}`))));
    });
    put.on('error', reject);
    createReadStream(file).pipe(put);
  });
}

async function storageName(db: Client, tableId: string): Promise<string> {
  const { rows } = await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId]);
  return rows[0].storage_name;
}

async function columnsOf(db: Client, tableId: string): Promise<Record<string, string>> {
  const { rows } = await db.query('SELECT slug, column_name FROM tables.fields WHERE table_id = $1', [tableId]);
  return Object.fromEntries(rows.map((row: { slug: string; column_name: string }) => [row.slug, `"${row.column_name}"`]));
}

/** Reads a job's row until it has ended; answers its run time from its own timestamps. */
async function jobSeconds(db: Client, table: 'imports' | 'exports', id: string): Promise<number> {
  for (;;) {
    const { rows } = await db.query(`SELECT status, extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM tables.${table} WHERE id = $1`, [id]);
    const { status, seconds } = rows[0];
    if (status === 'failed') throw new Error(`${table} ${id} failed`);
    if (status === 'completed') return seconds;
    await sleep(100);
  }
}

/**
 * Page-1 lists of another organization's table, one at a time and LIST_PAUSE_MS apart, for as long as
 * `more` answers true: the steady traffic of a tenant beside the job, not a load that competes with it.
 */
async function pacedLatency(gatewayUrl: string, key: string, path: string, more: () => boolean): Promise<Latency> {
  const timings: number[] = [];
  while (more() || timings.length < MIN_LIST_SAMPLES) {
    const started = performance.now();
    const status = await timedGet(`${gatewayUrl}${path}`, { authorization: `Bearer ${key}` });
    if (status !== 200) throw new Error(`GET ${path}: ${status}`);
    timings.push(performance.now() - started);
    await sleep(LIST_PAUSE_MS);
  }
  timings.sort((a, b) => a - b);
  return { p50: round(percentile(timings, 50), 1), p95: round(percentile(timings, 95), 1), p99: round(percentile(timings, 99), 1) };
}

/** Runs `job` while the other organization lists its table; answers both. */
async function beside<T>(list: (more: () => boolean) => Promise<Latency>, job: () => Promise<T>): Promise<[T, Latency]> {
  let running = true;
  const listing = list(() => running);
  try {
    const result = await job();
    running = false;
    return [result, await listing];
  } finally {
    running = false;
    await listing.catch(() => undefined);
  }
}

/** CPU ms used by every process during `work`, with the bench process's own. */
async function cpuDuring<T>(usage: UsageSampler, work: () => Promise<T>): Promise<[T, Record<string, number>, Record<string, number>]> {
  const before = { ...(await usage.cpu()), 'load generator': cpuMs(process.pid) };
  const result = await work();
  const after = { ...(await usage.cpu()), 'load generator': cpuMs(process.pid) };
  return [result, before, after];
}

export async function measureDataInOut(stack: BenchStack, org: BenchOrg, settings: DataSettings): Promise<DataFigures> {
  const api = benchApi(stack.gatewayUrl, org.key);
  const db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const file = join(dir, 'rows.csv');
  const usage = new UsageSampler(() => stack.pids(), stack.databaseUrl);
  const tables: string[] = [];
  try {
    log(`data: writing a ${settings.rows}-row CSV ...`);
    await writeCsv(file, settings.rows);
    const size = statSync(file).size;

    const other = await stack.createOrg();
    const otherApi = benchApi(stack.gatewayUrl, other.key);
    const otherTable = (await otherApi('POST', '/tables', { name: `bench other ${Date.now()}`, fields: ROW_FIELDS })).data.id as string;
    await seed(db, otherTable, 10_000);
    const otherPath = `/tables/${otherTable}/rows?sort=amount&order=asc&limit=50`;
    await listLatency(stack.gatewayUrl, other.key, otherPath, 20);
    const otherList = (more: () => boolean) => pacedLatency(stack.gatewayUrl, other.key, otherPath, more);
    const quietList = await otherList(() => false);
    log(`data: another organization's list, quiet: p99 ${quietList.p99} ms`);

    const target = (await api('POST', '/tables', { name: `bench import ${Date.now()}`, fields: ROW_FIELDS })).data.id as string;
    const ceiling = (await api('POST', '/tables', { name: `bench import ceiling ${Date.now()}`, fields: ROW_FIELDS })).data.id as string;
    tables.push(target, ceiling);

    // The ceiling first: COPY of the file into a table with the same fields and indexes (ids made by Postgres).
    const ceilingStorage = await storageName(db, ceiling);
    const ceilingColumns = await columnsOf(db, ceiling);
    await db.query(`ALTER TABLE tables."${ceilingStorage}" ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    log('data: COPY of the file (the import ceiling) ...');
    const [importCeilingSeconds, copyInBefore, copyInAfter] = await cpuDuring(usage, async () => {
      const started = performance.now();
      const columns = ['title', 'amount', 'status', 'day', 'done', 'email'].map((slug) => ceilingColumns[slug]).join(', ');
      await pipeline(createReadStream(file), db.query(copyFrom(`COPY tables."${ceilingStorage}" (${columns}) FROM STDIN WITH (FORMAT csv, HEADER true)`)));
      return (performance.now() - started) / 1000;
    });

    const ticket = (await api('POST', `/tables/${target}/uploads`, { filename: 'rows.csv', mime_type: 'text/csv', size, purpose: 'import' })).data;
    await putFile(ticket.upload_url, ticket.headers, file);
    log('data: the import ...');
    usage.start(250);
    const [[importSeconds, importList], importBefore, importAfter] = await cpuDuring(usage, () =>
      beside(otherList, async () => {
        const started = (await api('POST', `/tables/${target}/imports`, { upload_id: ticket.upload_id, format: 'csv' })).data;
        return jobSeconds(db, 'imports', started.id);
      }),
    );
    log(`data: import ${round(importSeconds, 1)} s against COPY ${round(importCeilingSeconds, 1)} s; the other organization's list p99 ${importList.p99} ms`);

    const targetStorage = await storageName(db, target);
    log('data: a plain COPY TO (the export ceiling) ...');
    const [exportCeilingSeconds, copyOutBefore, copyOutAfter] = await cpuDuring(usage, async () => {
      const started = performance.now();
      await pipeline(db.query(copyTo(`COPY tables."${targetStorage}" TO STDOUT WITH (FORMAT csv)`)), new Writable({ write: (_chunk, _encoding, done) => done() }));
      return (performance.now() - started) / 1000;
    });
    log('data: the export ...');
    const [[exportSeconds, exportList], exportBefore, exportAfter] = await cpuDuring(usage, () =>
      beside(otherList, async () => {
        const started = (await api('POST', `/tables/${target}/exports`, { format: 'csv' })).data;
        return jobSeconds(db, 'exports', started.id);
      }),
    );
    const { peakMiB } = usage.stop();
    log(`data: export ${round(exportSeconds, 1)} s against COPY TO ${round(exportCeilingSeconds, 1)} s; the other organization's list p99 ${exportList.p99} ms`);

    const perThousand = (before: Record<string, number>, after: Record<string, number>) => cpuPer(before, after, settings.rows / 1000);
    const figures = (seconds: number, ceilingSeconds: number, cpu: [Record<string, number>, Record<string, number>], ceilingCpu: [Record<string, number>, Record<string, number>], list: Latency) => ({
      seconds: round(seconds, 2),
      ceilingSeconds: round(ceilingSeconds, 2),
      ratio: round(ceilingSeconds / seconds, 3),
      rowsPerSecond: Math.round(settings.rows / seconds),
      cpuMsPerThousandRows: perThousand(...cpu),
      ceilingCpuMsPerThousandRows: perThousand(...ceilingCpu),
      otherOrgList: list,
    });
    return {
      rows: settings.rows,
      fileMiB: round(size / 2 ** 20, 1),
      quietList,
      import: figures(importSeconds, importCeilingSeconds, [importBefore, importAfter], [copyInBefore, copyInAfter], importList),
      export: figures(exportSeconds, exportCeilingSeconds, [exportBefore, exportAfter], [copyOutBefore, copyOutAfter], exportList),
      peakMiB,
    };
  } finally {
    usage.stop();
    for (const tableId of tables) await api('DELETE', `/tables/${tableId}`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await db.end();
  }
}
