import { cpuPer } from '../lib/usage-sampler';
import { round } from '../lib/bench-http';

/** One round of a load as fast as it goes: what autocannon counted, and the CPU each process used through it. */
export interface BatchRound {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU ms each process used through the round. */
  used: Record<string, number>;
}

/** The figures of a load over its rounds, in requests of `rowsPerRequest` rows. */
export interface BatchRun {
  rowsPerSecond: number;
  requests: { rps: number; p50: number; p99: number; non2xx: number; errors: number };
  /** CPU ms per 1,000 rows written, by process. */
  cpuMsPerThousandRows: Record<string, number>;
}

/** The rounds of one target as one run: rows per second and CPU per 1,000 rows over all of them, the median p50 and the worst p99. */
export function batchRun(rounds: readonly BatchRound[], rowsPerRequest: number): BatchRun {
  const requests = rounds.reduce((sum, each) => sum + each.requests, 0);
  const seconds = rounds.reduce((sum, each) => sum + each.seconds, 0);
  const used: Record<string, number> = {};
  for (const each of rounds) for (const [name, ms] of Object.entries(each.used)) used[name] = (used[name] ?? 0) + ms;
  const p50s = rounds.map((each) => each.p50).sort((a, b) => a - b);
  const load = {
    rps: round(requests / seconds, 1),
    p50: p50s[Math.floor(p50s.length / 2)],
    p99: Math.max(...rounds.map((each) => each.p99)),
    non2xx: rounds.reduce((sum, each) => sum + each.non2xx, 0),
    errors: rounds.reduce((sum, each) => sum + each.errors, 0),
  };
  return { rowsPerSecond: Math.round(load.rps * rowsPerRequest), requests: load, cpuMsPerThousandRows: cpuPer({}, used, (requests * rowsPerRequest) / 1000) };
}
