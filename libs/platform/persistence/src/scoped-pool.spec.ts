import { runInQueryScope } from './query-scope';
import { keepsStatementTimeout, ScopedPool, STATEMENT_TIMEOUT_STEP_MS, statementTimeoutFor } from './scoped-pool';
import { DeadlineExceededError } from './query-scope';

// Runs against the real Postgres; pg_sleep needs no tables, so the maintenance database serves.
const DATABASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const APP = `scoped-pool-spec-${process.pid}`;

function pool(max: number, organizationShare: number): ScopedPool {
  return new ScopedPool({ connectionString: DATABASE_URL, max, organizationShare, application_name: APP, statement_timeout: 30_000, connectionTimeoutMillis: 10_000 });
}

const scope = (organizationId: string, ms: number) => ({ organizationId, deadline: Date.now() + ms });

async function activeSleeps(observer: ScopedPool): Promise<number> {
  const { rows } = await observer.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`, [APP]);
  return rows[0].n;
}

describe('statementTimeoutFor', () => {
  it('never runs past the deadline and ends at most 250 ms or 5% of the time left before it', () => {
    for (const remaining of [1, 17, 39, 40, 499, STATEMENT_TIMEOUT_STEP_MS, 999, 1_000, 4_999, 5_001, 9_993, 10_000, 29_999]) {
      const timeout = statementTimeoutFor(remaining);
      expect(timeout).toBeGreaterThan(0);
      expect(timeout).toBeLessThanOrEqual(remaining);
      expect(remaining - timeout).toBeLessThanOrEqual(Math.min(STATEMENT_TIMEOUT_STEP_MS, remaining / 20));
    }
    expect(statementTimeoutFor(17)).toBe(17);
  });

  it('answers one value for requests with about as long left, so their connection keeps it', () => {
    expect(new Set([9_999, 9_990, 9_900, 9_751].map(statementTimeoutFor))).toEqual(new Set([9_750]));
    expect(statementTimeoutFor(9_749)).toBe(9_500);
  });

  it('keeps a value across the edge of a step, never past the deadline nor more than two steps before it', () => {
    // What a connection set for one request, then the time left of the next requests it serves.
    const sets = (remainings: number[]) => {
      let current: number | undefined;
      let count = 0;
      for (const remaining of remainings) {
        if (current === undefined || !keepsStatementTimeout(current, remaining)) {
          current = statementTimeoutFor(remaining);
          count += 1;
        }
        expect(current).toBeLessThanOrEqual(remaining);
        expect(remaining - current).toBeLessThan(2 * STATEMENT_TIMEOUT_STEP_MS);
      }
      return count;
    };
    expect(sets([10_000, 9_999, 10_000, 9_998, 10_000, 9_760, 9_999])).toBe(2);
    expect(sets([10_000, 9_400])).toBe(2);
    expect(sets([30, 29, 30, 31])).toBe(3);
  });
});

describe('ScopedPool against Postgres', () => {
  const pools: ScopedPool[] = [];
  const make = (max: number, share: number) => {
    const created = pool(max, share);
    pools.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it("cancels a statement in Postgres when its caller's deadline passes", async () => {
    const db = make(2, 1);
    const observer = make(1, 1);
    const started = Date.now();
    const sleeping = runInQueryScope(scope('org-a', 400), () => db.query('SELECT pg_sleep(5)'));
    await expect(sleeping).rejects.toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await activeSleeps(observer)).toBe(0);
  });

  it('bounds every statement of a transaction by the same deadline', async () => {
    const db = make(1, 1);
    await runInQueryScope(scope('org-a', 500), async () => {
      const client = await db.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_sleep(0.3)');
        await expect(client.query('SELECT pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    });
  });

  it('gives work outside a request the configured timeout again on a connection a request shortened', async () => {
    const db = make(1, 1);
    const inScope = await runInQueryScope(scope('org-a', 2_000), () => db.query('SHOW statement_timeout'));
    expect(inScope.rows[0].statement_timeout).toMatch(/^(1\d{3}|2000)ms$/);
    const outside = await db.query('SHOW statement_timeout');
    expect(outside.rows[0].statement_timeout).toBe('30s');
  });

  it("serves another organization at once while one organization's heavy queries queue behind each other", async () => {
    const db = make(4, 0.5);
    const observer = make(1, 1);
    const finished: string[] = [];
    const heavy = Array.from({ length: 6 }, (_, i) =>
      runInQueryScope(scope('heavy', 20_000), () => db.query('SELECT pg_sleep(0.6)')).then(() => finished.push(`heavy-${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await activeSleeps(observer)).toBe(2);
    expect(db.shares.usage('heavy')).toEqual({ held: 2, waiting: 4 });
    await runInQueryScope(scope('light', 20_000), () => db.query('SELECT 1'));
    finished.push('light');
    await Promise.all(heavy);
    expect(finished[0]).toBe('light');
  });

  it('stops waiting for a share when the deadline passes, without touching Postgres', async () => {
    const db = make(2, 0.5);
    const holding = runInQueryScope(scope('org-a', 20_000), () => db.query('SELECT pg_sleep(0.5)'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(runInQueryScope(scope('org-a', 100), () => db.query('SELECT 1'))).rejects.toBeInstanceOf(DeadlineExceededError);
    await holding;
    expect(db.shares.usage('org-a')).toEqual({ held: 0, waiting: 0 });
  });
});
