import { performance } from 'node:perf_hooks';

/**
 * Gathers calls into batches: the first call schedules a run on the next turn of the event loop (or
 * `gatherMs` later, for calls nobody waits on at once), and every call until then joins it (up to
 * `maxSize`); while `maxRunning` batches are running, calls wait and form the next batch, which runs as soon
 * as one ends, or `minGapMs` after the last one started. So the batches grow with the load: hundreds of
 * deliveries in flight share one query instead of one each. Each caller gets its own result, or its batch's
 * error.
 */
export class MicroBatcher<I, O> {
  private pending: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private running = 0;
  /** When the last batch started (performance.now()). */
  private lastStart = -Infinity;

  private readonly maxSize: number;
  private readonly maxRunning: number;
  private readonly gatherMs: number;
  private readonly minGapMs: number;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    { maxSize = 500, maxRunning = 1, gatherMs = 0, minGapMs = 0 }: { maxSize?: number; maxRunning?: number; gatherMs?: number; minGapMs?: number } = {},
  ) {
    this.maxSize = maxSize;
    this.maxRunning = maxRunning;
    this.gatherMs = gatherMs;
    this.minGapMs = minGapMs;
  }

  add(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.running >= this.maxRunning) return;
      if (this.pending.length >= this.maxSize) this.flush();
      else this.schedule(Math.max(this.gatherMs, this.gapLeft()));
    });
  }

  /** How long until the next batch may start. */
  private gapLeft(): number {
    return this.lastStart + this.minGapMs - performance.now();
  }

  private schedule(delayMs: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    if (delayMs > 0) setTimeout(run, delayMs);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.running >= this.maxRunning || this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.maxSize);
    this.running += 1;
    this.lastStart = performance.now();
    this.run(batch.map((entry) => entry.input))
      .then(
        (outputs) => batch.forEach((entry, i) => entry.resolve(outputs[i])),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
        this.running -= 1;
        // The calls that came meanwhile have waited already: they run at once, or once the gap has passed.
        if (this.pending.length >= this.maxSize) this.flush();
        else if (this.pending.length > 0) this.schedule(this.gapLeft());
      });
  }
}
