import { round } from './lib/bench-http';
import { bareCreateCpuAtPace, BenchReport } from './report';

/**
 * One figure a run is judged by, and which way is better. A ratio to a ceiling of the same run stays readable
 * from one machine to the next; CPU per operation and latencies move with the machine, so those that have a
 * ceiling's reference are judged against it.
 */
export interface Figure {
  key: string;
  label: string;
  value: number;
  higherIsBetter: boolean;
  /**
   * The same measure of this run's ceiling (the bare server's CPU per create, its p99, the signed-POST
   * process's CPU per request): a slower machine moves both alike, so the figure is judged against the
   * recorded run as a multiple of it.
   */
  reference?: number;
}

/** The figures of a recorded run (`bench/recorded.json`), by key, with the run they come from and their ceilings' references. */
export interface RecordedFigures {
  run: string;
  figures: Record<string, number>;
  references?: Record<string, number>;
}

/** A worse figure by more than this share of the recorded one is flagged. */
export const DROP_THRESHOLD = 0.1;

const total = (per: Record<string, number>) => round(Object.values(per).reduce((sum, ms) => sum + ms, 0), 3);

/** Each scenario's headline figures in this run. */
export function headlineFigures(report: BenchReport): Figure[] {
  const figures: Figure[] = [];
  const add = (key: string, label: string, value: number, higherIsBetter: boolean, reference?: number) =>
    figures.push({ key, label, value, higherIsBetter, ...(reference ? { reference } : {}) });
  const { creates, batches, deliveries, filters, lists, data } = report;
  if (creates) {
    add('creates.ratio', 'creates/s against the bare ceiling', creates.ratio, true);
    add('creates.cpuMs', 'CPU ms per create, every process', total(creates.cpuMsPerCreate), false, total(creates.cpuMsPerBareCreate));
    add('creates.fixedP99', `create p99 ms at ${creates.atFixedRate.rate}/s offered`, creates.atFixedRate.gateway.p99, false, creates.atFixedRate.bare.p99);
  }
  if (batches) {
    add('batches.ratio', 'batch rows/s against the bare batch ceiling', batches.ratio, true);
    add('batches.cpuMs', 'CPU ms per 1,000 batch rows, every process', total(batches.gateway.cpuMsPerThousandRows), false, total(batches.bare.cpuMsPerThousandRows));
  }
  if (deliveries) {
    add('deliveries.ratio', 'deliveries/s of one worker against the signed-POST ceiling', deliveries.ratioOneWorkerToCeiling, true);
    add('deliveries.workerCpuMs', 'worker CPU ms per delivery', deliveries.oneWorker.cpuMsPerDelivery['webhooks-worker'] ?? 0, false, deliveries.ceiling.cpuMsPerRequest);
    add('deliveries.secondWorkerGain', 'second worker process, times one', deliveries.secondWorkerGain, true);
    const { latency } = deliveries;
    // At the same pace, the bare server's CPU per create shows what the machine makes a wake-up cost.
    if (latency.cpuMsPerEvent) add('receipt.singleCpuMs', 'CPU ms per event from single creates, every process', total(latency.cpuMsPerEvent), false, bareCreateCpuAtPace(creates, latency));
    add('receipt.singleP50', 'commit-to-receipt p50 ms from single creates', deliveries.latency.p50, false);
    add('receipt.singleP99', 'commit-to-receipt p99 ms from single creates', deliveries.latency.p99, false);
    add('receipt.batchP99', 'commit-to-receipt p99 ms from batch creates', deliveries.batchedLatency.p99, false);
    if (deliveries.sustained) add('receipt.sustainedP99', `commit-to-receipt p99 ms at ${deliveries.sustained.rate} events/s from batch creates`, deliveries.sustained.p99, false);
  }
  if (filters) {
    // The CPU per event of each phase, not their difference: a share of a few percent moves by more than 10% of itself between runs.
    add('filters.dispatcherPlainMs', `dispatcher CPU ms per event, ${filters.webhooks} webhooks of another table`, filters.dispatcherPlainMs, false);
    add('filters.dispatcherFilteredMs', `dispatcher CPU ms per event, ${filters.webhooks} filtered webhooks of the table`, filters.dispatcherFilteredMs, false);
  }
  for (const list of lists) {
    add(`lists.${list.rows}.p95`, `list page 1 p95 ms at ${list.rows} rows`, list.unfiltered.p95, false);
    add(`lists.${list.rows}.filteredP95`, `20% filter with total p95 ms at ${list.rows} rows`, list.filtered.p95, false);
    add(`lists.${list.rows}.cursorP95`, `depth ${list.deep.depth} by cursor p95 ms at ${list.rows} rows`, list.deep.cursor.p95, false);
  }
  if (data) {
    add('import.ratio', `import of ${data.rows} rows against COPY`, data.import.ratio, true);
    add('import.cpuMs', 'CPU ms per 1,000 imported rows, every process', total(data.import.cpuMsPerThousandRows), false, total(data.import.ceilingCpuMsPerThousandRows));
    add('export.ratio', `export of ${data.rows} rows against COPY TO`, data.export.ratio, true);
    add('export.cpuMs', 'CPU ms per 1,000 exported rows, every process', total(data.export.cpuMsPerThousandRows), false, total(data.export.ceilingCpuMsPerThousandRows));
  }
  return figures;
}

/** How much worse today's figure is than the recorded one, as a share of the recorded one (negative: better). */
export function worsening(figure: Pick<Figure, 'value' | 'higherIsBetter'>, recorded: number): number {
  if (recorded === 0) return 0;
  const change = (figure.value - recorded) / Math.abs(recorded);
  return figure.higherIsBetter ? -change : change;
}

const percentOf = (worse: number) => `${worse > 0 ? 'worse' : 'better'} by ${Math.abs(round(worse * 100, 1))}%`;

/**
 * One line per figure: the recorded run's value beside today's, flagged DROP when worse by more than
 * DROP_THRESHOLD. A figure with a ceiling's reference in both runs is judged as a multiple of it, so a run
 * on a slower machine is not read as a slower system.
 */
export function comparisonLines(figures: Figure[], recorded: RecordedFigures | undefined): string[] {
  if (!recorded) return ['no recorded run to compare with (bench/recorded.json; BENCH_RECORD=1 writes it)'];
  return figures.map((figure) => {
    const before = recorded.figures[figure.key];
    if (before === undefined) return `  ${figure.label}: ${figure.value} (not in the recorded run)`;
    const ceilings = recorded.references?.[figure.key] && figure.reference ? { then: recorded.references[figure.key], now: figure.reference } : undefined;
    const [then, now] = ceilings ? [before / ceilings.then, figure.value / ceilings.now] : [before, figure.value];
    const worse = worsening({ value: now, higherIsBetter: figure.higherIsBetter }, then);
    const comparison = ceilings
      ? `recorded ${before} (${round(then, 3)}x its ceiling's ${ceilings.then}), today ${figure.value} (${round(now, 3)}x its ${ceilings.now}): ${percentOf(worse)} against the ceiling`
      : `recorded ${before}, today ${figure.value} (${percentOf(worse)})`;
    return `  ${figure.label}: ${comparison}${worse > DROP_THRESHOLD ? ' DROP' : ''}`;
  });
}

/**
 * Today's figures as a run to record, with their ceilings' references. A run of some scenarios only
 * (BENCH_ONLY) replaces their figures and keeps the others of the run recorded before, which the label then
 * names too.
 */
export function recordedFiguresOf(run: string, figures: Figure[], before?: RecordedFigures): RecordedFigures {
  const today = Object.fromEntries(figures.map((figure) => [figure.key, figure.value]));
  const references = Object.fromEntries(figures.flatMap((figure) => (figure.reference ? [[figure.key, figure.reference]] : [])));
  const kept = Object.keys(before?.figures ?? {}).filter((key) => !(key in today));
  const keptReferences = Object.entries(before?.references ?? {}).filter(([key]) => kept.includes(key));
  const allReferences = { ...Object.fromEntries(keptReferences), ...references };
  const recorded =
    !before || kept.length === 0 ? { run, figures: today } : { run: `${run} (${Object.keys(today).join(', ')}); the rest: ${before.run}`, figures: { ...before.figures, ...today } };
  return Object.keys(allReferences).length > 0 ? { ...recorded, references: allReferences } : recorded;
}
