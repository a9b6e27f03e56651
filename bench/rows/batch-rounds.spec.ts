import { BatchRound, batchRun } from './batch-rounds';

const round = (requests: number, p50: number, p99: number, used: Record<string, number>): BatchRound => ({ requests, seconds: 5, p50, p99, non2xx: 0, errors: 0, used });

describe('a batch load over its rounds', () => {
  it('answers the rows per second and the CPU per 1,000 rows over every round, the median p50 and the worst p99', () => {
    const run = batchRun(
      [round(100, 90, 300, { gateway: 400, postgres: 1000 }), round(50, 120, 500, { gateway: 200, postgres: 500 }), round(150, 80, 200, { gateway: 600, postgres: 1500, bare: 0 })],
      100,
    );
    // 300 requests of 100 rows in 15 s.
    expect(run.rowsPerSecond).toBe(2000);
    expect(run.requests).toEqual({ rps: 20, p50: 90, p99: 500, non2xx: 0, errors: 0 });
    // 30,000 rows: 1,200 ms of the gateway and 3,000 of Postgres; a process that used nothing is left out.
    expect(run.cpuMsPerThousandRows).toEqual({ gateway: 40, postgres: 100 });
  });

  it('counts the failures of every round', () => {
    const run = batchRun([{ ...round(10, 1, 1, {}), non2xx: 2 }, { ...round(10, 1, 1, {}), errors: 3 }], 100);
    expect(run.requests).toMatchObject({ non2xx: 2, errors: 3 });
  });
});
