import { Client } from 'pg';
import { cpuMs, residentMiB, timesRun } from './process-usage';

/** Where each measured process is now (a restarted worker has a new pid); undefined while it is down. */
export type PidsOf = () => Record<string, number | undefined>;

export interface MemoryFigures {
  idleMiB: Record<string, number | undefined>;
  peakMiB: Record<string, number>;
}

/**
 * Samples the RSS of every process of the bench stack while the scenarios run (peak under load), and
 * reads CPU time per process, Postgres backends of the bench database included, around a scenario.
 */
export class UsageSampler {
  private readonly peak: Record<string, number> = {};
  private idle: Record<string, number | undefined> = {};
  private timer?: NodeJS.Timeout;
  private readonly backendCpu = new BackendCounter();
  private readonly backendRuns = new BackendCounter();

  constructor(
    private readonly pids: PidsOf,
    private readonly databaseUrl: string,
  ) {}

  recordIdle(): void {
    this.idle = Object.fromEntries(Object.entries(this.pids()).map(([name, pid]) => [name, pid ? residentMiB(pid) : undefined]));
  }

  start(everyMs = 500): void {
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  stop(): MemoryFigures {
    clearInterval(this.timer);
    this.sample();
    return { idleMiB: this.idle, peakMiB: { ...this.peak } };
  }

  /** CPU ms used so far by each process, and by the Postgres backends serving the bench database. */
  async cpu(): Promise<Record<string, number>> {
    const usage: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids())) if (pid) usage[name] = cpuMs(pid);
    usage.postgres = this.backendCpu.add(await this.backendPids(), cpuMs);
    return usage;
  }

  /** Times each process was put on a CPU so far (its wake-ups), and the Postgres backends' of the bench database. */
  async runs(): Promise<Record<string, number>> {
    const runs: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids())) if (pid) runs[name] = timesRun(pid);
    runs.postgres = this.backendRuns.add(await this.backendPids(), timesRun);
    return runs;
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids())) {
      const rss = pid ? residentMiB(pid) : undefined;
      if (rss !== undefined) this.peak[name] = Math.max(this.peak[name] ?? 0, rss);
    }
  }

  private async backendPids(): Promise<number[]> {
    const db = new Client({ connectionString: this.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return rows.map((row) => row.pid);
    } finally {
      await db.end();
    }
  }
}

/**
 * A count summed over the Postgres backends of the bench database (CPU time, times run), kept as a running
 * total of what each backend added since it was last read: a backend that ended between two readings (a
 * pool closed an idle connection) takes what it had counted before with it from a plain sum, which then
 * falls; here it keeps it.
 */
export class BackendCounter {
  private seen = new Map<number, number>();
  private total = 0;

  add(pids: readonly number[], read: (pid: number) => number): number {
    const now = new Map(pids.map((pid) => [pid, read(pid)]));
    for (const [pid, value] of now) this.total += Math.max(0, value - (this.seen.get(pid) ?? 0));
    this.seen = now;
    return this.total;
  }
}

/** CPU ms each process used between two readings. */
export function cpuUsed(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, end]) => [name, end - (before[name] ?? 0)]));
}

/** CPU ms per unit of work between two readings, for every process that used any. */
export function cpuPer(before: Record<string, number>, after: Record<string, number>, units: number): Record<string, number> {
  const per: Record<string, number> = {};
  for (const [name, used] of Object.entries(cpuUsed(before, after))) {
    if (used > 0 && units > 0) per[name] = Math.round((used / units) * 1000) / 1000;
  }
  return per;
}
