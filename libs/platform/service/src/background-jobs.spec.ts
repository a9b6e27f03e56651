import { Logger } from '@nestjs/common';
import { BackgroundLoop, PeriodicJob } from './background-jobs';
import { backgroundWork } from './background-work';

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
      { name: 'test-loop', owner: 'tests', failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000 },
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
    }, { name: 'test-loop', owner: 'tests', failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000 });
    loop.start();
    await new Promise((r) => setImmediate(r));
    loop.wake();
    await second.promise;
    await loop.stop();
    expect(passes).toBe(2);
    expect(warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'test pass failed; will retry');
  });

  it('keeps the pause after a failure when told to, remembering a wake for the pause after it', async () => {
    let passes = 0;
    const loop = new BackgroundLoop(logger, async () => {
      passes += 1;
      if (passes === 1) throw new Error('stream without a leader');
      return false;
    }, { name: 'test-loop', owner: 'tests', failure: 'test pass failed', idleMs: 60_000, backoffMs: 150, wakeDuringBackoff: false });
    loop.start();
    await new Promise((r) => setImmediate(r));
    loop.wake();
    await new Promise((r) => setTimeout(r, 100));
    expect(passes).toBe(1);
    // The wake is kept: the second pass finds no work, and the idle pause after it ends at once.
    await new Promise((r) => setTimeout(r, 500));
    expect(passes).toBe(3);
    await loop.stop();
  });

  it('starts passes no closer together than minGapMs, however often it is woken', async () => {
    const starts: number[] = [];
    const loop = new BackgroundLoop(logger, async () => {
      starts.push(performance.now());
      return starts.length < 4;
    }, { name: 'test-loop', owner: 'tests', failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000, minGapMs: 40 });
    loop.start();
    await new Promise((r) => setTimeout(r, 300));
    await loop.stop();
    expect(starts).toHaveLength(4);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(40);
  });

  it('is listed in the registry, with its owner, schedule and health, while it runs', async () => {
    let fail = true;
    const failed = deferred();
    const loop = new BackgroundLoop(logger, async () => {
      if (fail) {
        fail = false;
        failed.resolve();
        throw new Error('database down');
      }
      return false;
    }, { name: 'registry-loop', owner: 'tests', failure: 'test pass failed', idleMs: 60_000, backoffMs: 60_000 });
    loop.start();
    await failed.promise;
    await new Promise((r) => setImmediate(r));
    expect(backgroundWork.list().find((work) => work.name === 'registry-loop')).toEqual({
      name: 'registry-loop',
      owner: 'tests',
      schedule: 'when woken or more is waiting, else every 60000 ms',
      running: true,
      failures_in_a_row: 1,
      last_success_at: null,
      last_failure: 'database down',
    });
    loop.wake();
    await new Promise((r) => setTimeout(r, 20));
    expect(backgroundWork.list().find((work) => work.name === 'registry-loop')).toMatchObject({ failures_in_a_row: 0, last_success_at: expect.any(String) });
    await loop.stop();
    expect(backgroundWork.list().find((work) => work.name === 'registry-loop')).toBeUndefined();
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
    }, 1, { runAtStart: true, name: 'test-job', owner: 'tests' });
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
