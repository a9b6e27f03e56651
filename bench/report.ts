import type { DataFigures } from './data/scenarios';
import type { BatchCreateFigures, CreateFigures, ListFigures } from './rows/scenarios';
import type { MemoryFigures } from './lib/usage-sampler';
import type { LatencyFigures, WebhookFigures } from './webhooks/scenarios';
import type { FilterFigures } from './filters/scenarios';
import { log, round } from './lib/bench-http';

export interface BenchReport {
  date: string;
  mode: string;
  machine: { cpus: number; cpu?: string; loadAverage: { start: number[]; end: number[] } };
  creates?: CreateFigures;
  batches?: BatchCreateFigures;
  deliveries?: WebhookFigures;
  filters?: FilterFigures;
  lists: ListFigures[];
  data?: DataFigures;
  memory: MemoryFigures;
}

/** Issue 18's memory targets, each with the measured figure it is read against. */
const IDLE_MIB = 120;
const LOADED_MIB = 200;
/** Issue 30's: an import or export at least half as fast as COPY, under 250 MB a process, a tenant's list p99 within 2x. */
const DATA_CEILING_SHARE = 0.5;
const DATA_PEAK_MIB = 250;
const LIST_P99_FACTOR = 2;

/** Issue 29's: the whole path against its bare ceilings, with CPU per operation across every process. */
const CREATE_CEILING_SHARE = 0.65;
const CREATE_CPU_MS = 1.4;
const CREATE_P99_MS = 60;
const BATCH_CEILING_SHARE = 0.7;
const WORKER_DELIVERIES_PER_SECOND = 3000;
const WORKER_CPU_MS = 0.3;
const REDIS_CPU_MS = 0.12;
const RECEIPT_P50_MS = 25;
const RECEIPT_P99_MS = 150;
/**
 * "No backlog" at the sustained rate: the creates kept the rate, every event arrived, and the last one within
 * this long of the last create's answer (a pipeline that fell behind for a minute leaves seconds of work).
 */
const SUSTAINED_DRAIN_MS = 1_000;
const SUSTAINED_RATE_SHARE = 0.98;

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
const sum = (per: Record<string, number>) => Object.values(per).reduce((total, ms) => total + ms, 0);

/**
 * The bare server's CPU per create (with Postgres's) at the pace of a commit-to-receipt phase from single
 * creates, when the creates ran at it: the reference for that phase's CPU per event.
 */
export function bareCreateCpuAtPace(creates: CreateFigures | undefined, latency: { rate: number; rowsPerRequest: number }): number | undefined {
  return creates && latency.rowsPerRequest === 1 && creates.atPace.rate === latency.rate ? round(sum(creates.atPace.cpuMsPerBareCreate), 3) : undefined;
}

function cpuLine(per: Record<string, number>, unit = ' ms'): string {
  return `${Object.entries(per).map(([name, ms]) => `${name} ${ms}`).join(', ')} (total ${round(sum(per), 3)}${unit})`;
}

export function printSummary(report: BenchReport): void {
  const { creates, batches, deliveries, filters, lists, data, memory } = report;
  const largest = lists[lists.length - 1];
  log('');
  log(`bench ${report.mode} run ${report.date}; ${report.machine.cpus} CPUs (${report.machine.cpu}); load average ${report.machine.loadAverage.start.join(' ')} -> ${report.machine.loadAverage.end.join(' ')}`);
  log('');
  if (creates) {
    const fixed = creates.atFixedRate;
    log(`creates/s: gateway ${creates.gateway.rps}, bare ceiling ${creates.bare.rps}: ratio ${creates.ratio} (target >= ${CREATE_CEILING_SHARE}: ${verdict(creates.ratio >= CREATE_CEILING_SHARE)})`);
    log(
      `  at ${fixed.rate}/s offered by the 50 connections: gateway ${fixed.gateway.rps}/s p50 ${fixed.gateway.p50} ms p99 ${fixed.gateway.p99} ms (target p99 < ${CREATE_P99_MS} ms: ${verdict(fixed.gateway.p99 < CREATE_P99_MS && fixed.gateway.rps >= 0.95 * fixed.rate)}); bare ${fixed.bare.rps}/s p99 ${fixed.bare.p99} ms; as fast as they go: p50 ${creates.gateway.p50} ms p99 ${creates.gateway.p99} ms`,
    );
    log(`  CPU ms per create: ${cpuLine(creates.cpuMsPerCreate)} (target <= ${CREATE_CPU_MS}: ${verdict(sum(creates.cpuMsPerCreate) <= CREATE_CPU_MS)})`);
    log(`  CPU ms per bare create: ${cpuLine(creates.cpuMsPerBareCreate)}`);
    const pace = creates.atPace;
    log(
      `  at commit-to-receipt's ${pace.rate}/s: gateway ${pace.gateway.rps}/s p99 ${pace.gateway.p99} ms, CPU ms per create ${cpuLine(pace.cpuMsPerCreate)}; bare ${pace.bare.rps}/s p99 ${pace.bare.p99} ms, CPU ms per create ${cpuLine(pace.cpuMsPerBareCreate)}`,
    );
  }
  if (batches) {
    const { gateway, bare } = batches;
    log(
      `batch creates (${batches.rowsPerRequest} rows/request, ${batches.connections} connections): ${gateway.rowsPerSecond} rows/s, p50 ${gateway.requests.p50} ms p99 ${gateway.requests.p99} ms per request, non-2xx ${gateway.requests.non2xx} (target >= 10000 rows/s: ${verdict(gateway.rowsPerSecond >= 10_000)})`,
    );
    log(`  bare ceiling ${bare.rowsPerSecond} rows/s (p50 ${bare.requests.p50} ms per request): ratio ${batches.ratio} (target >= ${BATCH_CEILING_SHARE}: ${verdict(batches.ratio >= BATCH_CEILING_SHARE)})`);
    log(`  CPU ms per 1,000 rows: ${cpuLine(gateway.cpuMsPerThousandRows)}`);
    log(`  CPU ms per 1,000 bare rows: ${cpuLine(bare.cpuMsPerThousandRows)}`);
  }
  if (filters) {
    const percent = (share: number) => `${share >= 0 ? '+' : ''}${Math.round(share * 1000) / 10}%`;
    log(
      `webhook filters (${filters.webhooks} filtered webhooks on one table): the fan-out's matching CPU ${filters.matchingPlainMs} ms per event without them, ${filters.matchingFilteredMs} ms with them: ${percent(filters.matchingAddedShare)} of its CPU per event (target <= 5%: ${verdict(filters.matchingAddedShare <= 0.05)}); the whole dispatcher ${filters.dispatcherPlainMs} against ${filters.dispatcherFilteredMs} ms per event, each round's phases compared: ${percent(filters.addedShare)} (the median of ${filters.roundShares.length} rounds); jobs queued for filtered-out events: ${filters.phases.reduce((sum, phase) => sum + phase.jobsQueued, 0)}`,
    );
  }
  if (deliveries) {
    log(
      `deliveries/s, 5 webhooks: one worker ${deliveries.oneWorker.deliveriesPerSecond} (target >= ${WORKER_DELIVERIES_PER_SECOND}: ${verdict(deliveries.oneWorker.deliveriesPerSecond >= WORKER_DELIVERIES_PER_SECOND)}), ceiling ${deliveries.ceiling.perSecond} (${deliveries.ceiling.cpuMsPerRequest} ms of its CPU per request): ratio ${deliveries.ratioOneWorkerToCeiling}`,
    );
    log(`  two workers ${deliveries.twoWorkers.deliveriesPerSecond}: ${deliveries.secondWorkerGain}x one (target: more than one: ${verdict(deliveries.secondWorkerGain > 1)})`);
    const perDelivery = deliveries.oneWorker.cpuMsPerDelivery;
    const redisMs = perDelivery['redis-server'];
    log(
      `  worker CPU ms per delivery ${perDelivery['webhooks-worker']} (target <= ${WORKER_CPU_MS}: ${verdict(perDelivery['webhooks-worker'] <= WORKER_CPU_MS)}); Redis ${redisMs ?? 'not read (BENCH_REDIS_URL)'}${redisMs === undefined ? '' : ` (target <= ${REDIS_CPU_MS}: ${verdict(redisMs <= REDIS_CPU_MS)})`}`,
    );
    log(`  delivered ${deliveries.oneWorker.deliveries}/${deliveries.oneWorker.expected} and ${deliveries.twoWorkers.deliveries}/${deliveries.twoWorkers.expected}, duplicates ${deliveries.oneWorker.duplicates + deliveries.twoWorkers.duplicates}`);
    log(`  CPU ms per delivery (one worker): ${cpuLine(deliveries.oneWorker.cpuMsPerDelivery)}`);
    log(`  CPU ms per queued delivery job (create to queue): ${cpuLine(deliveries.cpuMsPerQueuedJob)}`);
    for (const latency of [deliveries.latency, deliveries.batchedLatency]) {
      const writes = latency.rowsPerRequest > 1 ? `batch creates of ${latency.rowsPerRequest} rows` : 'single creates';
      log(
        `commit-to-receipt, 1 webhook at ${latency.rate} events/s from ${writes} (achieved ${latency.createdPerSecond}/s, ${latency.deliveries}/${latency.expected} delivered): p50 ${latency.p50} ms (target < ${RECEIPT_P50_MS}: ${verdict(latency.p50 < RECEIPT_P50_MS)}), p99 ${latency.p99} ms (target < ${RECEIPT_P99_MS}: ${verdict(latency.p99 < RECEIPT_P99_MS)})`,
      );
      printLatencyDetails(latency, bareCreateCpuAtPace(creates, latency));
    }
    if (deliveries.sustained) printSustained(deliveries.sustained);
  }
  for (const list of lists) {
    log(`list page 1 at ${list.rows} rows: unfiltered p50/p95/p99 ${list.unfiltered.p50}/${list.unfiltered.p95}/${list.unfiltered.p99} ms; 20% filter with total ${list.filtered.p50}/${list.filtered.p95}/${list.filtered.p99} ms`);
    log(`  CPU ms per page-1 request: ${cpuLine(list.cpuMsPerPage)}`);
    const { deep } = list;
    log(`  depth ${deep.depth} (limit 50): by cursor p50/p95/p99 ${deep.cursor.p50}/${deep.cursor.p95}/${deep.cursor.p99} ms; by page ${deep.page.p50}/${deep.page.p95}/${deep.page.p99} ms`);
  }
  if (largest) {
    log(`  at ${largest.rows} rows: sorted p95 < 25 ms ${verdict(largest.unfiltered.p95 < 25)}, filtered p95 < 100 ms ${verdict(largest.filtered.p95 < 100)}`);
    log(`  at ${largest.rows} rows, depth ${largest.deep.depth} by cursor p95 < 30 ms ${verdict(largest.deep.cursor.p95 < 30)}`);
  }
  if (data) printData(data);
  log('RSS MiB, idle / peak under load:');
  for (const name of Object.keys({ ...memory.idleMiB, ...memory.peakMiB })) {
    const idle = memory.idleMiB[name];
    const peak = memory.peakMiB[name];
    const checks = [idle === undefined ? '' : `idle < ${IDLE_MIB} ${verdict(idle < IDLE_MIB)}`, peak === undefined ? '' : `peak < ${LOADED_MIB} ${verdict(peak < LOADED_MIB)}`];
    log(`  ${name.padEnd(18)} ${String(idle ?? '-').padStart(4)} / ${String(peak ?? '-').padStart(4)}   ${checks.filter(Boolean).join(', ')}`);
  }
}

/** Whether the sustained phase left no backlog: the creates kept the rate, every event arrived, the last one soon after the load. */
export function keptUp(sustained: Pick<LatencyFigures, 'rate' | 'createdPerSecond' | 'deliveries' | 'expected' | 'drainMs'>): boolean {
  return sustained.createdPerSecond >= sustained.rate * SUSTAINED_RATE_SHARE && sustained.deliveries >= sustained.expected && sustained.drainMs <= SUSTAINED_DRAIN_MS;
}

function printSustained(sustained: LatencyFigures): void {
  const seconds = round(sustained.expected / sustained.rate, 0);
  log(
    `commit-to-receipt, 1 webhook at ${sustained.rate} events/s for ${seconds} s from batch creates of ${sustained.rowsPerRequest} rows: achieved ${sustained.createdPerSecond}/s, ${sustained.deliveries}/${sustained.expected} delivered, p50 ${sustained.p50} ms, p99 ${sustained.p99} ms, the last event ${sustained.drainMs} ms after the last create (target no backlog: the rate kept, every event delivered, the last within ${SUSTAINED_DRAIN_MS} ms: ${verdict(keptUp(sustained))})`,
  );
  printLatencyDetails(sustained);
}

/** Where a commit-to-receipt phase's CPU and time went: by process, against the bare server at its pace when given, and by stage. */
function printLatencyDetails(latency: LatencyFigures, bareAtPace?: number): void {
  if (latency.cpuMsPerEvent) log(`  CPU ms per event, create to receipt: ${cpuLine(latency.cpuMsPerEvent)}; the load generator and receiver (the bench process) ${latency.loadGeneratorCpuMsPerEvent ?? '-'}`);
  if (latency.cpuMsPerEvent && bareAtPace) log(`  that is ${round(sum(latency.cpuMsPerEvent) / bareAtPace, 2)}x the bare server's CPU per create at the same pace (${bareAtPace} ms)`);
  if (latency.runsPerEvent) log(`  times on a CPU (wake-ups) per event: ${cpuLine(latency.runsPerEvent, '')}`);
  if (latency.stages) log(`  stages, p50 / p99: ${Object.entries(latency.stages).map(([stage, figures]) => `${stage} ${figures}`).join('; ')}`);
}

function printData(data: DataFigures): void {
  log(`data in and out, ${data.rows} rows of 6 fields (${data.fileMiB} MiB of CSV); another organization's list quiet p50/p95/p99 ${data.quietList.p50}/${data.quietList.p95}/${data.quietList.p99} ms`);
  for (const [name, figures, ceiling] of [
    ['import', data.import, 'COPY FROM into the same fields and indexes'],
    ['export', data.export, 'plain COPY TO'],
  ] as const) {
    log(
      `  ${name}: ${figures.seconds} s (${figures.rowsPerSecond} rows/s), ${ceiling} ${figures.ceilingSeconds} s: ratio ${figures.ratio} (target >= ${DATA_CEILING_SHARE}: ${verdict(figures.ratio >= DATA_CEILING_SHARE)})`,
    );
    log(`    CPU ms per 1,000 rows: ${cpuLine(figures.cpuMsPerThousandRows)}`);
    log(`    CPU ms per 1,000 rows by COPY: ${cpuLine(figures.ceilingCpuMsPerThousandRows)}`);
    const list = figures.otherOrgList;
    log(`    another organization's list meanwhile p50/p95/p99 ${list.p50}/${list.p95}/${list.p99} ms (target p99 within ${LIST_P99_FACTOR}x quiet: ${verdict(list.p99 <= LIST_P99_FACTOR * data.quietList.p99)})`);
  }
  // The S3 server stands in for the object storage a deployment uses; it is not one of the system's processes.
  const peaks = Object.entries(data.peakMiB).filter(([name]) => name !== 's3rver');
  const largest = Math.max(...peaks.map(([, mib]) => mib));
  log(`  peak RSS MiB during both: ${Object.entries(data.peakMiB).map(([name, mib]) => `${name} ${mib}`).join(', ')} (target < ${DATA_PEAK_MIB} for every process of the system: ${verdict(largest < DATA_PEAK_MIB)})`);
}
