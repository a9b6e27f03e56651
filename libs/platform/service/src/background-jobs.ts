import { Logger } from '@nestjs/common';

export interface BackgroundLoopOptions {
  /** What the failure warnings say went wrong, e.g. "file cleanup pass failed". */
  failure: string;
  /** The pause after a pass that left no work waiting. */
  idleMs: number;
  /** The pause after a failed pass; it doubles with every failure in a row, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs?: number;
}

/**
 * Runs `pass` over and over in the background until stopped: at once again while it answers that more
 * work is waiting, after `idleMs` when it answers that none is, and with a growing pause while it
 * fails (the failure is logged; nothing is lost, the next pass tries again). `wake()` cuts a pause short.
 */
export class BackgroundLoop {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;

  constructor(
    private readonly logger: Logger,
    private readonly pass: () => Promise<boolean>,
    private readonly options: BackgroundLoopOptions,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the pass in flight, which finishes first. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Cuts the current pause short, or the next one when a pass is running. */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  private async run(): Promise<void> {
    const { idleMs, backoffMs, maxBackoffMs = 30_000 } = this.options;
    let failures = 0;
    while (this.running) {
      try {
        const moreWaiting = await this.pass();
        failures = 0;
        if (!moreWaiting) await this.pause(idleMs);
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error }, `${this.options.failure}; will retry`);
        await this.pause(Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(failures, 16)));
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (!this.running || this.woken) {
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
      this.wakeUp = done;
    });
  }
}

/**
 * Runs `work` every `intervalMs` in the background (and once at once with `runAtStart`), never twice at
 * a time: a tick that finds the last run still going is skipped. `work` handles its own failures.
 * `stop()` ends the ticks and waits for the run in flight; `stopping` tells a long run to end early.
 */
export class PeriodicJob {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly options: { runAtStart?: boolean } = {},
  ) {}

  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    if (this.options.runAtStart) this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.inFlight;
  }

  private tick(): void {
    this.inFlight ??= this.work().finally(() => (this.inFlight = undefined));
  }
}
