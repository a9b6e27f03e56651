import { Logger } from '@nestjs/common';
import { BackgroundLoop, PeriodicJob } from './background-jobs';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('BackgroundLoop', () => {
  const logger = { warn: jest.fn() } as unknown as Logger;

  it('runs again at once while work is waiting, idles when none is, and stops after the pass in flight', async () => {
    const answers = [true, true, false];
    let passes = 0;
    const idle = deferred();
    const loop = new BackgroundLoop(
      logger,
      async () => {
        passes += 1;
        const more = answers.shift() ?? false;
        if (!more) idle.resolve();
        return more;
      },
      { failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000 },
    );
    loop.start();
    await idle.promise;
    await loop.stop();
    expect(passes).toBe(3);
  });

  it('logs a failed pass and tries again after the backoff, which wake() cuts short', async () => {
    const warn = jest.fn();
    let passes = 0;
    const second = deferred();
    const loop = new BackgroundLoop({ warn } as unknown as Logger, async () => {
      passes += 1;
      if (passes === 1) throw new Error('database down');
      second.resolve();
      return false;
    }, { failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000 });
    loop.start();
    await new Promise((r) => setImmediate(r));
    loop.wake();
    await second.promise;
    await loop.stop();
    expect(passes).toBe(2);
    expect(warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'test pass failed; will retry');
  });
});

describe('PeriodicJob', () => {
  it('never runs twice at a time, and stop() waits for the run in flight', async () => {
    const release = deferred();
    let runs = 0;
    let finished = false;
    const job = new PeriodicJob(async () => {
      runs += 1;
      await release.promise;
      finished = true;
    }, 1, { runAtStart: true });
    job.start();
    // Many ticks pass while the first run is held.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 2));
    expect(runs).toBe(1);
    const stopped = job.stop();
    expect(job.stopping).toBe(true);
    release.resolve();
    await stopped;
    expect(finished).toBe(true);
  });
});
