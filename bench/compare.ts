import type { BenchReport } from './report';

/** One figure a run is judged by, and which way is better. Ratios to a ceiling of the same run and CPU per operation stay readable on a shared machine; absolute rates do not. */
export interface Figure {
  key: string;
  label: string;
  value: number;
  higherIsBetter: boolean;
}

/** The figures of a recorded run (`bench/recorded.json`), by key, with the run they come from. */
export interface RecordedFigures {
  run: string;
  figures: Record<string, number>;
}

/** A worse figure by more than this share of the recorded one is flagged. */
export const DROP_THRESHOLD = 0.1;

const total = (per: Record<string, number>) => Math.round(Object.values(per).reduce((sum, ms) => sum + ms, 0) * 1000) / 1000;

/** Each scenario's headline figures in this run. */
export function headlineFigures(report: BenchReport): Figure[] {
  const figures: Figure[] = [];
  const add = (key: string, label: string, value: number, higherIsBetter: boolean) => figures.push({ key, label, value, higherIsBetter });
  const { creates, batches, deliveries, filters, lists, data } = report;
  if (creates) {
    add('creates.ratio', 'creates/s against the bare ceiling', creates.ratio, true);
    add('creates.cpuMs', 'CPU ms per create, every process', total(creates.cpuMsPerCreate), false);
    add('creates.fixedP99', `create p99 ms at ${creates.atFixedRate.rate}/s offered`, creates.atFixedRate.gateway.p99, false);
  }
  if (batches) {
    add('batches.ratio', 'batch rows/s against the bare batch ceiling', batches.ratio, true);
    add('batches.cpuMs', 'CPU ms per 1,000 batch rows, every process', total(batches.gateway.cpuMsPerThousandRows), false);
  }
  if (deliveries) {
    add('deliveries.ratio', 'deliveries/s of one worker against the signed-POST ceiling', deliveries.ratioOneWorkerToCeiling, true);
    add('deliveries.workerCpuMs', 'worker CPU ms per delivery', deliveries.oneWorker.cpuMsPerDelivery['webhooks-worker'] ?? 0, false);
    add('deliveries.secondWorkerGain', 'second worker process, times one', deliveries.secondWorkerGain, true);
    add('receipt.singleP50', 'commit-to-receipt p50 ms from single creates', deliveries.latency.p50, false);
    add('receipt.singleP99', 'commit-to-receipt p99 ms from single creates', deliveries.latency.p99, false);
    add('receipt.batchP99', 'commit-to-receipt p99 ms from batch creates', deliveries.batchedLatency.p99, false);
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
    add('import.cpuMs', 'CPU ms per 1,000 imported rows, every process', total(data.import.cpuMsPerThousandRows), false);
    add('export.ratio', `export of ${data.rows} rows against COPY TO`, data.export.ratio, true);
    add('export.cpuMs', 'CPU ms per 1,000 exported rows, every process', total(data.export.cpuMsPerThousandRows), false);
  }
  return figures;
}

/** How much worse today's figure is than the recorded one, as a share of the recorded one (negative: better). */
export function worsening(figure: Figure, recorded: number): number {
  if (recorded === 0) return 0;
  const change = (figure.value - recorded) / Math.abs(recorded);
  return figure.higherIsBetter ? -change : change;
}

/** One line per figure: the recorded run's value beside today's, flagged DROP when worse by more than DROP_THRESHOLD. */
export function comparisonLines(figures: Figure[], recorded: RecordedFigures | undefined): string[] {
  if (!recorded) return ['no recorded run to compare with (bench/recorded.json; BENCH_RECORD=1 writes it)'];
  return figures.map((figure) => {
    const before = recorded.figures[figure.key];
    if (before === undefined) return `  ${figure.label}: ${figure.value} (not in the recorded run)`;
    const worse = worsening(figure, before);
    const percent = `${worse > 0 ? 'worse' : 'better'} by ${Math.abs(Math.round(worse * 1000) / 10)}%`;
    return `  ${figure.label}: recorded ${before}, today ${figure.value} (${percent})${worse > DROP_THRESHOLD ? ' DROP' : ''}`;
  });
}

/**
 * Today's figures as a run to record. A run of some scenarios only (BENCH_ONLY) replaces their figures and
 * keeps the others of the run recorded before, which the label then names too.
 */
export function recordedFiguresOf(run: string, figures: Figure[], before?: RecordedFigures): RecordedFigures {
  const today = Object.fromEntries(figures.map((figure) => [figure.key, figure.value]));
  const kept = Object.keys(before?.figures ?? {}).filter((key) => !(key in today));
  if (!before || kept.length === 0) return { run, figures: today };
  return { run: `${run} (${Object.keys(today).join(', ')}); the rest: ${before.run}`, figures: { ...before.figures, ...today } };
}
