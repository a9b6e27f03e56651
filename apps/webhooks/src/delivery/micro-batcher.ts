/**
 * Gathers calls made in the same moment into one batch: the first call schedules a run on the next turn
 * of the event loop, and every call until then joins it (up to `maxSize`). Each caller gets its own
 * result, or the batch's error. Hundreds of deliveries in flight then share one query instead of one each.
 */
export class MicroBatcher<I, O> {
  private pending: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxSize = 500,
  ) {}

  add(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.run(batch.map((entry) => entry.input)).then(
      (outputs) => batch.forEach((entry, i) => entry.resolve(outputs[i])),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
