import { Database, Sql } from './database';

// Runs against the real Postgres; no tables needed, so the maintenance database serves.
const DATABASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('Database', () => {
  const db = new Database({ url: DATABASE_URL, poolSize: 2, organizationShare: 1, applicationName: `database-spec-${process.pid}` });
  const observer = new Database({ url: DATABASE_URL, poolSize: 1, organizationShare: 1, applicationName: `database-spec-observer-${process.pid}` });

  afterAll(async () => {
    await Promise.all([db.close(), observer.close()]);
  });

  it('survives a connection that breaks while checked out between statements: that work fails, the next succeeds', async () => {
    const errors: unknown[] = [];
    const crash = (error: unknown) => errors.push(error);
    process.on('uncaughtException', crash);
    try {
      const broken = db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // The server ends this session while no statement of it runs (a restart or failover would too).
        await observer.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.query('SELECT 1');
      });
      await expect(broken).rejects.toThrow();
      expect(errors).toEqual([]);
      // The broken connection was dropped, not handed out again.
      await expect(db.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      await expect(db.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      process.off('uncaughtException', crash);
    }
  });

  it('gives every connection of its pool the parallel workers per query it was told, and leaves the server default otherwise', async () => {
    const setting = async (database: Sql) =>
      (await database.query<{ max_parallel_workers_per_gather: string }>('SHOW max_parallel_workers_per_gather')).rows[0].max_parallel_workers_per_gather;
    const serverDefault = await setting(observer);
    const serial = new Database({ url: DATABASE_URL, poolSize: 2, organizationShare: 1, applicationName: `database-spec-serial-${process.pid}`, parallelWorkersPerQuery: 0 });
    const three = new Database({ url: DATABASE_URL, poolSize: 1, organizationShare: 1, applicationName: `database-spec-three-${process.pid}`, parallelWorkersPerQuery: 3 });
    try {
      // Both connections of the pool, held at once, and inside a transaction.
      const both = await Promise.all([serial.transaction((tx) => setting(tx)), serial.transaction((tx) => setting(tx))]);
      expect(both).toEqual(['0', '0']);
      expect(await setting(three)).toBe('3');
      expect(serverDefault).not.toBe('3');
    } finally {
      await Promise.all([serial.close(), three.close()]);
    }
  });

  it('commits a transaction told not to wait for the disk with synchronous_commit off, that transaction only', async () => {
    const single = new Database({ url: DATABASE_URL, poolSize: 1, organizationShare: 1, applicationName: `database-spec-async-${process.pid}` });
    const setting = async (tx: Sql) => (await tx.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0].synchronous_commit;
    try {
      const serverDefault = await single.transaction(setting);
      expect(serverDefault).not.toBe('off');
      await single.query('CREATE TEMP TABLE written (n int)');
      const inside = await single.transaction(
        async (tx) => {
          await tx.query('INSERT INTO written VALUES (1)');
          return setting(tx);
        },
        { synchronousCommit: false },
      );
      expect(inside).toBe('off');
      // The same connection afterwards: the setting ended with its transaction, and what it wrote committed.
      expect(await single.transaction(setting)).toBe(serverDefault);
      expect((await single.query<{ n: number }>('SELECT n FROM written')).rows).toEqual([{ n: 1 }]);
      await expect(single.transaction(async () => Promise.reject(new Error('undone')), { synchronousCommit: false })).rejects.toThrow('undone');
      expect(await single.transaction(setting)).toBe(serverDefault);
    } finally {
      await single.close();
    }
  });

  it('opens a transaction with its opening statement, in it, and hands work that statement\'s rows; a rollback undoes it', async () => {
    const single = new Database({ url: DATABASE_URL, poolSize: 1, organizationShare: 1, applicationName: `database-spec-opening-${process.pid}` });
    try {
      await single.query('CREATE TEMP TABLE waiting (n int); INSERT INTO waiting VALUES (1), (2), (3)');
      const opening = 'DELETE FROM waiting WHERE n < 3 RETURNING n';
      // Inside the transaction the opening's work is seen; outside, a rollback puts it back.
      await expect(
        single.transaction<never, { n: number }>(async (tx, opened) => {
          expect(opened.map((row) => row.n).sort()).toEqual([1, 2]);
          expect((await tx.query<{ count: string }>('SELECT count(*) FROM waiting')).rows[0].count).toBe('1');
          throw new Error('undone');
        }, { opening }),
      ).rejects.toThrow('undone');
      expect((await single.query<{ count: string }>('SELECT count(*) FROM waiting')).rows[0].count).toBe('3');
      const taken = await single.transaction<number[], { n: number }>(async (_tx, opened) => opened.map((row) => row.n), { opening, synchronousCommit: false });
      expect(taken.sort()).toEqual([1, 2]);
      expect((await single.query<{ n: number }>('SELECT n FROM waiting')).rows).toEqual([{ n: 3 }]);
      // Without an opening, work gets no rows.
      expect(await single.transaction(async (_tx, opened) => opened)).toEqual([]);
      // An opening that fails fails the transaction, runs no work, and leaves the pool's one connection out of it.
      const work = jest.fn(async () => 'ran');
      await expect(single.transaction(work, { opening: 'SELECT 1 / 0' })).rejects.toThrow('division by zero');
      expect(work).not.toHaveBeenCalled();
      expect((await single.query<{ n: number }>('SELECT n FROM waiting')).rows).toEqual([{ n: 3 }]);
      expect(await single.transaction(async (tx) => (await tx.query<{ one: number }>('SELECT 1 AS one')).rows)).toEqual([{ one: 1 }]);
    } finally {
      await single.close();
    }
  });
});
