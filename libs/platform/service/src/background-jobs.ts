import { backgroundWork, WorkHealth } from './background-work';

/** Nest's Logger and pino's both fit. */
export interface LoopLogger {
  warn(details: object, message: string): unknown;
}

/** Names a piece of background work in the registry (`backgroundWork`). */
export interface WorkIdentity {
  name: string;
  /** The context whose work it is. */
  owner: string;
}

export interface BackgroundLoopOptions extends WorkIdentity {
  /** What the failure warnings say went wrong, e.g. "file cleanup pass failed". */
  failure: string;
  /** The pause after a pass that left no work waiting. */
  idleMs: number;
  /** The pause after a failed pass; it doubles with every failure in a row, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs?: number;
  /**
   * The shortest time from one pass's start to the next (0 by default): work that arrives in it is taken
   * by one pass instead of one each. wake() does not cut it short.
   */
  minGapMs?: number;
  /** Whether wake() cuts short the pause after a failure (true by default). */
  wakeDuringBackoff?: boolean;
}

/**
 * Runs `pass` over and over in the background until stopped: at once again while it answers that more
 * work is waiting, after `idleMs` when it answers that none is, and with a growing pause while it
 * fails (the failure is logged; nothing is lost, the next pass tries again). `wake()` cuts a pause short.
 * Every loop of the system (the outbox relays too) runs on this one, and is listed in `backgroundWork`.
 */
export class BackgroundLoop {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;
  private readonly health = new WorkHealth();

  constructor(
    private readonly logger: LoopLogger,
    private readonly pass: () => Promise<boolean>,
    private readonly options: BackgroundLoopOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.health.running = true;
    const { name, owner, idleMs } = this.options;
    backgroundWork.register({ name, owner, schedule: `when woken or more is waiting, else every ${idleMs} ms`, health: () => this.health.report() });
    this.loop = this.run();
  }

  /** Stops after the pass in flight, which finishes first. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.health.running = false;
    backgroundWork.remove(this.options.name);
  }

  /** Cuts the current pause short, or the next one when a pass is running. */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  private async run(): Promise<void> {
    const { idleMs, backoffMs, maxBackoffMs = 30_000, minGapMs = 0, wakeDuringBackoff = true } = this.options;
    let lastStart = -Infinity;
    while (this.running) {
      try {
        // Again after the pause: a timer may fire up to a millisecond before the high-resolution clock says it is due.
        for (let gap = lastStart + minGapMs - performance.now(); gap > 0 && this.running; gap = lastStart + minGapMs - performance.now()) await this.pause(gap, false);
        lastStart = performance.now();
        const moreWaiting = await this.pass();
        this.health.succeeded();
        if (!moreWaiting) await this.pause(idleMs);
      } catch (error) {
        this.health.failed(error);
        this.logger.warn({ err: error }, `${this.options.failure}; will retry`);
        await this.pause(Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(this.health.failuresInARow, 16)), wakeDuringBackoff);
      }
    }
  }

  /** Waits `ms`; stop() ends any wait, wake() ends it (or the next one, if none is on) when `wakeable`. */
  private pause(ms: number, wakeable = true): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (wakeable && this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        this.wakeUp = undefined;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakeable ? done : () => (this.running ? (this.woken = true) : done());
    });
  }
}

/**
 * Runs `work` every `intervalMs` in the background (and once at once with `runAtStart`), never twice at
 * a time: a tick that finds the last run still going is skipped. `work` handles its own failures (a run
 * that throws anyway counts as failed in `backgroundWork`). `stop()` ends the ticks and waits for the run
 * in flight; `stopping` tells a long run to end early.
 */
export class PeriodicJob {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private stopped = false;
  private readonly health = new WorkHealth();

  constructor(
    private readonly work: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly options: WorkIdentity & { runAtStart?: boolean },
  ) {}

  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.health.running = true;
    const { name, owner } = this.options;
    backgroundWork.register({ name, owner, schedule: `every ${this.intervalMs} ms`, health: () => this.health.report() });
    if (this.options.runAtStart) this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.inFlight;
    this.health.running = false;
    backgroundWork.remove(this.options.name);
  }

  private tick(): void {
    this.inFlight ??= this.work()
      .then(
        () => this.health.succeeded(),
        (error: unknown) => this.health.failed(error),
      )
      .finally(() => (this.inFlight = undefined));
  }
}
