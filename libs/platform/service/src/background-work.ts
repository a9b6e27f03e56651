/** How a piece of background work has fared, as `/health/background` shows it. */
export interface BackgroundWorkHealth {
  running: boolean;
  failures_in_a_row: number;
  last_success_at: string | null;
  last_failure: string | null;
}

/** One piece of work a process does on its own: a periodic job, a loop, a relay, a queue consumer. */
export interface BackgroundWork {
  /** Unique within the process, e.g. `outbox-relay.tables`. */
  name: string;
  /** The context whose work it is. */
  owner: string;
  /** When it runs, for people: `every 60000 ms`, `when woken or more is waiting, else every 1000 ms`. */
  schedule: string;
  health(): BackgroundWorkHealth;
}

/** Keeps what the health answer of one piece of background work says. */
export class WorkHealth {
  running = false;
  private failures = 0;
  private lastSuccess?: Date;
  private lastFailure?: string;

  succeeded(): void {
    this.failures = 0;
    this.lastSuccess = new Date();
  }

  failed(error: unknown): void {
    this.failures += 1;
    this.lastFailure = String((error as Error)?.message ?? error);
  }

  get failuresInARow(): number {
    return this.failures;
  }

  report(): BackgroundWorkHealth {
    return {
      running: this.running,
      failures_in_a_row: this.failures,
      last_success_at: this.lastSuccess?.toISOString() ?? null,
      last_failure: this.lastFailure ?? null,
    };
  }
}

/**
 * Every piece of background work of this process, registered when it starts and removed when it stops:
 * the one list an operator reads (`GET /health/background` on the health port) to see what runs where.
 */
class BackgroundWorkRegistry {
  private readonly entries = new Map<string, BackgroundWork>();

  register(work: BackgroundWork): void {
    this.entries.set(work.name, work);
  }

  remove(name: string): void {
    this.entries.delete(name);
  }

  list(): Array<Omit<BackgroundWork, 'health'> & BackgroundWorkHealth> {
    return [...this.entries.values()]
      .map(({ name, owner, schedule, health }) => ({ name, owner, schedule, ...health() }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}

export const backgroundWork = new BackgroundWorkRegistry();
