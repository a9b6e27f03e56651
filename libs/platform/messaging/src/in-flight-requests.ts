import { defer, finalize, Observable } from 'rxjs';

/** The request-reply handlers of a process still working, so a shutdown can wait for their answers. */
export class InFlightRequests {
  private count = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Counts the handler from subscription until it has emitted its answer and completed (or failed). */
  track<T>(handler: Observable<T>): Observable<T> {
    return defer(() => {
      this.count += 1;
      return handler.pipe(finalize(() => this.finish()));
    });
  }

  /** Resolves true once none is in flight, or false when `maxMs` passed first. */
  settled(maxMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, maxMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  private finish(): void {
    this.count -= 1;
    if (this.count === 0) for (const waiter of this.waiters.splice(0)) waiter();
  }
}
