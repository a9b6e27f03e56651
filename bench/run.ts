/**
 * `npm run bench`: starts a stack of its own, runs every scenario beside its ceiling in the same run, and
 * prints the figures, the ratios and the targets. BENCH_QUICK=1 runs a shorter version of each.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { freePort } from '@platform/testing';
import { startBenchStack, REPO_ROOT } from './lib/bench-stack';
import { log, sleep } from './lib/bench-http';
import { UsageSampler } from './lib/usage-sampler';
import { comparisonLines, headlineFigures, RecordedFigures, recordedFiguresOf } from './compare';
import { printSummary } from './report';
import { measureDispatch } from './dispatch/scenarios';
import { FiltersSettings, measureFilters } from './filters/scenarios';
import { measureBatchCreates, measureCreates, measureLists, RowsSettings } from './rows/scenarios';
import { measureWebhooks, WebhooksSettings } from './webhooks/scenarios';
import { DataSettings, measureDataInOut } from './data/scenarios';
import { measureHostLoss } from './cluster/host-loss';

const quick = process.env.BENCH_QUICK === '1';
const number = (name: string, full: number, short: number) => Number(process.env[name] ?? (quick ? short : full));

const rows: RowsSettings = {
  durationS: number('BENCH_DURATION_S', 15, 5),
  connections: number('BENCH_CONNECTIONS', 50, 50),
  fixedRate: number('BENCH_FIXED_RATE', 1_000, 1_000),
  pacedRate: number('BENCH_WEBHOOK_RATE', 500, 500),
  sizes: (process.env.BENCH_SIZES ?? (quick ? '10000,100000' : '10000,1000000')).split(',').map(Number),
  listRequests: number('BENCH_LIST_REQUESTS', 400, 200),
};
const webhooks: WebhooksSettings = {
  latencyRate: number('BENCH_WEBHOOK_RATE', 500, 500),
  latencyDurationS: number('BENCH_WEBHOOK_DURATION_S', 10, 5),
  warmUpS: number('BENCH_WEBHOOK_WARM_UP_S', 15, 5),
  sustainedRate: number('BENCH_SUSTAINED_RATE', 1_000, 1_000),
  sustainedDurationS: number('BENCH_SUSTAINED_S', 60, 10),
  backlogRows: number('BENCH_BACKLOG_ROWS', 4_000, 1_000),
  drainTimeoutMs: number('BENCH_DRAIN_TIMEOUT_MS', 120_000, 60_000),
  ceilingInFlight: number('BENCH_CEILING_IN_FLIGHT', 100, 100),
};
const filters: FiltersSettings = {
  webhooks: 100,
  rowsPerPhase: number('BENCH_FILTER_ROWS', 20_000, 3_000),
  rounds: number('BENCH_FILTER_ROUNDS', 10, 2),
  timeoutMs: number('BENCH_DRAIN_TIMEOUT_MS', 120_000, 60_000),
};
const data: DataSettings = { rows: number('BENCH_DATA_ROWS', 1_000_000, 100_000) };
const IDLE_SETTLE_MS = number('BENCH_IDLE_SETTLE_MS', 10_000, 5_000);
/**
 * `BENCH_ONLY=webhooks` (a comma list of creates, batches, webhooks, filters, lists, data, dispatch, cluster) runs only
 * those scenarios, with the memory figures. The cluster (three hosts in network namespaces) needs root.
 */
const only = new Set((process.env.BENCH_ONLY ?? `creates,batches,webhooks,filters,lists,data,dispatch${process.getuid?.() === 0 ? ',cluster' : ''}`).split(',').map((name) => name.trim()));
const runs = (name: string) => only.has(name);

async function main(): Promise<void> {
  const started = new Date();
  const loadAtStart = loadAverage();
  log(`starting the bench stack (${quick ? 'quick' : 'full'} run) ...`);
  const stack = await startBenchStack({ redisUrl: process.env.BENCH_REDIS_URL, logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn' });
  const usage = new UsageSampler(() => stack.pids(), stack.databaseUrl);
  // Ctrl-C still stops the stack's processes and NATS and drops the bench database.
  const interrupted = () => void stack.shutdown().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await sleep(IDLE_SETTLE_MS);
    usage.recordIdle();
    usage.start();
    const org = await stack.createOrg();
    const besideBare = { gatewayUrl: stack.gatewayUrl, databaseUrl: stack.databaseUrl, org, usage, settings: rows };
    const creates = runs('creates') ? await measureCreates({ ...besideBare, barePort: await freePort() }) : undefined;
    const batches = runs('batches') ? await measureBatchCreates({ ...besideBare, barePort: await freePort() }) : undefined;
    const deliveries = runs('webhooks') ? await measureWebhooks(stack, org, usage, webhooks) : undefined;
    const filterCost = runs('filters') ? await measureFilters(stack, org, usage, filters) : undefined;
    const lists = runs('lists') ? await measureLists(stack.gatewayUrl, stack.databaseUrl, org, usage, rows) : [];
    const dataInOut = runs('data') ? await measureDataInOut(stack, org, data) : undefined;
    const dispatch = runs('dispatch') ? await measureDispatch(stack.gatewayUrl, org, usage, rows.durationS) : undefined;
    const memory = usage.stop();
    // Last, beside an idle bench stack: its hosts run a copy of every process each.
    const cluster = runs('cluster') ? await measureHostLoss() : undefined;
    const report = {
      date: started.toISOString(),
      mode: quick ? 'quick' : 'full',
      machine: machine(loadAtStart),
      settings: { rows, webhooks, filters, data },
      creates,
      batches,
      deliveries,
      filters: filterCost,
      lists,
      data: dataInOut,
      dispatch,
      memory,
      cluster,
    };
    const file = resolve(REPO_ROOT, 'dist/bench-report.json');
    mkdirSync(resolve(REPO_ROOT, 'dist'), { recursive: true });
    writeFileSync(file, JSON.stringify(report, null, 2));
    printSummary(report);
    compareWithRecorded(report);
    log(`full figures: ${file}`);
  } finally {
    usage.stop();
    await stack.shutdown();
  }
}

/**
 * Prints each headline figure beside the recorded run's (`bench/recorded.json`, committed with the run's
 * table in bench/README.md) and flags a drop of more than 10%; BENCH_RECORD=1 makes this run the recorded one
 * (for the scenarios it ran: the others keep their recorded figures).
 */
function compareWithRecorded(report: Parameters<typeof headlineFigures>[0]): void {
  const file = resolve(REPO_ROOT, 'bench/recorded.json');
  const recorded = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RecordedFigures) : undefined;
  const figures = headlineFigures(report);
  log('');
  log(`against the recorded run${recorded ? ` (${recorded.run})` : ''}:`);
  for (const line of comparisonLines(figures, recorded)) log(line);
  if (process.env.BENCH_RECORD === '1') {
    writeFileSync(file, `${JSON.stringify(recordedFiguresOf(`${report.mode} run ${report.date}`, figures, recorded), null, 2)}\n`);
    log(`recorded this run's figures in ${file}`);
  }
}

const loadAverage = () => loadavg().map((n) => Math.round(n * 10) / 10);

function machine(loadAtStart: number[]) {
  return { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, loadAverage: { start: loadAtStart, end: loadAverage() } };
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
