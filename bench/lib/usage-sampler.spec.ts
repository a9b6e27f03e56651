import { BackendCounter } from './usage-sampler';

describe("the Postgres backends' running total", () => {
  it('keeps what an ended backend counted, and counts a new one from its start', () => {
    const counter = new BackendCounter();
    const values = new Map([
      [1, 100],
      [2, 50],
    ]);
    const read = (pid: number) => values.get(pid) ?? 0;
    expect(counter.add([1, 2], read)).toBe(150);
    values.set(1, 130);
    // Backend 2 ended (a pool closed it): its 50 stay counted; backend 3 started and has used 20.
    values.set(3, 20);
    expect(counter.add([1, 3], read)).toBe(200);
    values.set(3, 25);
    expect(counter.add([1, 3], read)).toBe(205);
  });
});
