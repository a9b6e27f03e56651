/**
 * What webhook filters cost the dispatcher (issue 31): 100 webhooks of one organization, all on
 * `row.created`, narrowed to one table, each with a filter no row matches. Rows are created in batches,
 * in the `filtered` phases in that table (the fan-out also evaluates the filters) and in the `plain`
 * phases in a second table with the same fields (the fan-out finds that the webhooks do not want its
 * events). Nothing is delivered in either, and the webhooks do not change between phases, so the
 * difference in the dispatcher's CPU per event is the evaluation of the filters. After a warm-up of
 * both, the phases alternate in pairs of rounds, plain-filtered then filtered-plain, so that the drift
 * of a process that keeps getting cheaper (and of a shared machine) weighs on both alike.
 */
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import type { BenchOrg, BenchStack } from '../lib/bench-stack';
import { benchApi, log, round, sleep } from '../lib/bench-http';
import { preciseCpuMs } from '../lib/process-usage';
import { cpuPer, UsageSampler } from '../lib/usage-sampler';

export interface FiltersSettings {
  webhooks: number;
  rowsPerPhase: number;
  rounds: number;
  timeoutMs: number;
}

export interface FilterPhase {
  phase: 'plain' | 'filtered';
  events: number;
  /** CPU ms per event of the dispatcher process (`webhooks`: the fan-out), and of the rest (in 10 ms ticks). */
  cpuMsPerEvent: Record<string, number>;
  /** The dispatcher's CPU ms per event read to the nanosecond (`preciseCpuMs`): what the phases are compared by. */
  dispatcherMsPerEvent: number;
  /** The fan-out's own timing of choosing each event's webhooks (`webhook_fan_out_matching_seconds_total`), ms per event. */
  matchingMsPerEvent: number;
  /** Delivery jobs the fan-out queued meanwhile: none, since no webhook wanted any event. */
  jobsQueued: number;
}

export interface FilterFigures {
  webhooks: number;
  phases: FilterPhase[];
  dispatcherPlainMs: number;
  dispatcherFilteredMs: number;
  /**
   * (filtered - plain) / plain of the dispatcher's CPU per event, each round's two phases (run one after
   * the other) compared with each other, the median of the rounds: the figure judged.
   */
  addedShare: number;
  /** Each round's (filtered - plain) / plain. */
  roundShares: number[];
  /** The fan-out's matching time per event, medians of the phases, plain and filtered. */
  matchingPlainMs: number;
  matchingFilteredMs: number;
  /** (matching filtered - matching plain) / the dispatcher's plain CPU per event: the filters' own cost, timed where it is spent. */
  matchingAddedShare: number;
}

const BATCH_ROWS = 100;
const IN_FLIGHT = 4;
const FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Stage', field_type: 'select', options: { values: ['open', 'won', 'lost'] } },
  { name: 'Amount', field_type: 'number' },
  { name: 'Region', field_type: 'text' },
];

/** Filters of four shapes, none of which the rows written here match (every row is an open EMEA deal of at most 4,999). */
function filterOf(i: number): Record<string, unknown> {
  switch (i % 4) {
    case 0:
      return { stage: 'won' };
    case 1:
      return { amount: { gte: 5_000 + i }, stage: { in: ['won', 'lost'] } };
    case 2:
      return { title: { starts_with: 'deal' }, region: { ne: 'emea' } };
    default:
      return { or: [{ stage: 'won' }, { amount: { gt: 100_000 } }, { region: { contains: 'apac' } }] };
  }
}

const rowOf = (n: number) => ({ title: `deal ${n}`, stage: 'open', amount: n % 5_000, region: 'emea' });

async function metric(healthPort: number, line: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  return Number(line.exec(text)?.[1] ?? 0);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function measureFilters(stack: BenchStack, org: BenchOrg, usage: UsageSampler, settings: FiltersSettings): Promise<FilterFigures> {
  const api = benchApi(stack.gatewayUrl, org.key);
  const dispatcher = stack.process('webhooks').healthPort;
  const redis = new IORedis(stack.env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(stack.env.WEBHOOK_QUEUE, { connection: redis });
  const deals = (await api('POST', '/tables', { name: `bench filters ${Date.now()}`, fields: FIELDS })).data.id as string;
  const twin = (await api('POST', '/tables', { name: `bench filters twin ${Date.now()}`, fields: FIELDS })).data.id as string;
  const hooks: string[] = [];
  try {
    log(`filters: ${settings.webhooks} filtered webhooks on row.created of one table ...`);
    for (let i = 0; i < settings.webhooks; i += 1) {
      const body = { name: `bench filter ${i}`, url: 'http://127.0.0.1:9/never', events: ['row.created'], table_ids: [deals], filter: filterOf(i) };
      hooks.push((await api('POST', '/webhooks', body)).data.id);
    }
    // Let the fan-out read the webhooks as they now are before measuring.
    await sleep(1_000);
    let written = 0;
    const phase = async (kind: FilterPhase['phase']): Promise<FilterPhase> => {
      const table = kind === 'filtered' ? deals : twin;
      const fannedOut = () => metric(dispatcher, /^webhook_events_consumed_total\{outcome="fanned_out"\} (\d+)$/m);
      const queued = () => metric(dispatcher, /^webhook_jobs_enqueued_total (\d+)$/m);
      const matching = () => metric(dispatcher, /^webhook_fan_out_matching_seconds_total (\S+)$/m);
      const [eventsBefore, jobsBefore, matchingBefore] = [await fannedOut(), await queued(), await matching()];
      const before = await usage.cpu();
      const dispatcherBefore = preciseCpuMs(stack.process('webhooks').pid);
      for (let made = 0; made < settings.rowsPerPhase; made += BATCH_ROWS * IN_FLIGHT) {
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, (_, i) => Math.min(BATCH_ROWS, settings.rowsPerPhase - made - i * BATCH_ROWS))
            .filter((n) => n > 0)
            .map((n, i) => api('POST', `/tables/${table}/rows/batch`, { rows: Array.from({ length: n }, (_, j) => ({ data: rowOf(written + made + i * BATCH_ROWS + j) })) })),
        );
      }
      written += settings.rowsPerPhase;
      const deadline = Date.now() + settings.timeoutMs;
      while ((await fannedOut()) - eventsBefore < settings.rowsPerPhase) {
        if (Date.now() > deadline) throw new Error(`the fan-out did not take the ${kind} phase's events in time`);
        await sleep(100);
      }
      const dispatcherUsed = preciseCpuMs(stack.process('webhooks').pid) - dispatcherBefore;
      const after = await usage.cpu();
      const events = (await fannedOut()) - eventsBefore;
      const figures = {
        phase: kind,
        events,
        cpuMsPerEvent: cpuPer(before, after, events),
        dispatcherMsPerEvent: round(dispatcherUsed / events, 5),
        matchingMsPerEvent: round((((await matching()) - matchingBefore) * 1000) / events, 6),
        jobsQueued: (await queued()) - jobsBefore,
      };
      log(`filters: ${kind}: ${events} events, dispatcher ${figures.dispatcherMsPerEvent} ms CPU per event (matching ${figures.matchingMsPerEvent}), ${figures.jobsQueued} jobs queued`);
      return figures;
    };

    log('filters: warming up ...');
    // Both ways once, so that neither measured phase pays for compiling (the aims, the JIT) what the other reuses.
    await phase('plain');
    await phase('filtered');
    const phases: FilterPhase[] = [];
    for (let pass = 0; pass < settings.rounds; pass += 1) {
      const order: Array<FilterPhase['phase']> = pass % 2 === 0 ? ['plain', 'filtered'] : ['filtered', 'plain'];
      for (const kind of order) phases.push(await phase(kind));
    }
    if ((await queue.count()) !== 0) throw new Error('filtered-out events reached the queue');
    const medianOf = (kind: FilterPhase['phase'], figure: (phase: FilterPhase) => number) => median(phases.filter((p) => p.phase === kind).map(figure));
    const dispatcherPlainMs = round(medianOf('plain', (p) => p.dispatcherMsPerEvent), 5);
    const dispatcherFilteredMs = round(medianOf('filtered', (p) => p.dispatcherMsPerEvent), 5);
    const matchingPlainMs = round(medianOf('plain', (p) => p.matchingMsPerEvent), 6);
    const matchingFilteredMs = round(medianOf('filtered', (p) => p.matchingMsPerEvent), 6);
    // A round is two phases back to back; comparing within it leaves out the drift from one round to the next.
    const roundShares = Array.from({ length: settings.rounds }, (_, i) => {
      const [plain, filtered] = ['plain', 'filtered'].map((kind) => phases.slice(2 * i, 2 * i + 2).find((p) => p.phase === kind) as FilterPhase);
      return round((filtered.dispatcherMsPerEvent - plain.dispatcherMsPerEvent) / plain.dispatcherMsPerEvent, 3);
    });
    const figures = {
      webhooks: settings.webhooks,
      phases,
      dispatcherPlainMs,
      dispatcherFilteredMs,
      addedShare: round(median(roundShares), 3),
      roundShares,
      matchingPlainMs,
      matchingFilteredMs,
      matchingAddedShare: round((matchingFilteredMs - matchingPlainMs) / dispatcherPlainMs, 4),
    };
    log(
      `filters: dispatcher CPU per event ${dispatcherPlainMs} ms plain, ${dispatcherFilteredMs} ms with ${settings.webhooks} filters; added, the median of the rounds ${round(figures.addedShare * 100, 1)}% (target <= 5%; rounds ${roundShares.map((share) => `${round(share * 100, 1)}%`).join(', ')}); the matching timed in the fan-out ${matchingPlainMs} against ${matchingFilteredMs} ms per event: ${round(figures.matchingAddedShare * 100, 2)}% of the plain CPU per event`,
    );
    return figures;
  } finally {
    for (const id of hooks) await api('DELETE', `/webhooks/${id}`).catch(() => undefined);
    await api('DELETE', `/tables/${deals}`).catch(() => undefined);
    await api('DELETE', `/tables/${twin}`).catch(() => undefined);
    await queue.close();
    redis.disconnect();
  }
}
