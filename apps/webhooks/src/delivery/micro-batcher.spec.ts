import { performance } from 'node:perf_hooks';
import { MicroBatcher } from './micro-batcher';

describe('MicroBatcher', () => {
  it('runs calls made together as one batch and answers each its own result', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      batches.push(inputs);
      return inputs.map((n) => n * 2);
    });
    await expect(Promise.all([1, 2, 3].map((n) => batcher.add(n)))).resolves.toEqual([2, 4, 6]);
    await expect(batcher.add(7)).resolves.toBe(14);
    expect(batches).toEqual([[1, 2, 3], [7]]);
  });

  it('splits at the maximum size', async () => {
    const sizes: number[] = [];
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      sizes.push(inputs.length);
      return inputs;
    }, { maxSize: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails every caller of a failed batch, and recovers for the next', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      if (fail) throw new Error('down');
      return inputs;
    });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(batcher.add(3)).resolves.toBe(3);
  });

  it('gathers the calls made while a batch runs into the next one', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => undefined;
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      batches.push(inputs);
      if (batches.length === 1) await new Promise<void>((resolve) => (finish = resolve));
      return inputs;
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is running: these wait for it, across turns of the event loop, and then run together.
    const later = [batcher.add(2)];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(batcher.add(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    finish();
    await expect(Promise.all([first, ...later])).resolves.toEqual([1, 2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('waits gatherMs after the first call when asked to, so calls spread over a few milliseconds share a batch', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>(
      async (inputs) => {
        batches.push(inputs);
        return inputs;
      },
      { gatherMs: 30 },
    );
    const first = batcher.add(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([]);
    await expect(Promise.all([first, batcher.add(2)])).resolves.toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('runs the calls that waited for a running batch as soon as it ends, not gatherMs later', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => undefined;
    const batcher = new MicroBatcher<number, number>(
      async (inputs) => {
        batches.push(inputs);
        if (batches.length === 1) await new Promise<void>((resolve) => (finish = resolve));
        return inputs;
      },
      { gatherMs: 1_000 },
    );
    const first = batcher.add(1);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const waiting = batcher.add(2);
    const finishedAt = Date.now();
    finish();
    await expect(Promise.all([first, waiting])).resolves.toEqual([1, 2]);
    expect(Date.now() - finishedAt).toBeLessThan(500);
    expect(batches).toEqual([[1], [2]]);
  });

  it('starts a batch no sooner than minGapMs after the last one started, and the calls made meanwhile share it', async () => {
    const starts: Array<{ at: number; inputs: number[] }> = [];
    const batcher = new MicroBatcher<number, number>(
      async (inputs) => {
        starts.push({ at: performance.now(), inputs });
        return inputs;
      },
      { minGapMs: 200 },
    );
    await batcher.add(1);
    // The first batch ended at once: the calls made after it wait out the gap, together.
    const later = [batcher.add(2)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    later.push(batcher.add(3));
    await expect(Promise.all(later)).resolves.toEqual([2, 3]);
    expect(starts.map((start) => start.inputs)).toEqual([[1], [2, 3]]);
    expect(starts[1].at - starts[0].at).toBeGreaterThanOrEqual(195);
    // Once the gap has passed, a call runs on the next turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const calledAt = performance.now();
    await batcher.add(4);
    expect(starts[2].at - calledAt).toBeLessThan(50);
  });
});
