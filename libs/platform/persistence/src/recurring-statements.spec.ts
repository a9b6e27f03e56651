import { Database, queryRecurring } from './database';
import { RECURRING_PER_CONNECTION } from './recurring-statements';

// Runs against the real Postgres; no tables needed, so the maintenance database serves.
const DATABASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The statements the one connection of `db` holds prepared, by their text (pg_prepared_statements is per session). */
async function preparedTexts(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'r\\_%' ORDER BY prepare_time`);
  return rows.map((row) => row.statement);
}

describe('queryRecurring', () => {
  // One connection, so every statement meets the same session.
  const db = new Database({ url: DATABASE_URL, poolSize: 1, organizationShare: 1, applicationName: `recurring-spec-${process.pid}` });
  const text = (n: number) => `SELECT $1::int + ${n} AS sum`;

  afterAll(() => db.close());

  it('is prepared once per connection under its text and runs with each call’s values', async () => {
    await expect(queryRecurring(db, text(1), [1])).resolves.toMatchObject({ rows: [{ sum: 2 }] });
    await expect(queryRecurring(db, text(1), [41])).resolves.toMatchObject({ rows: [{ sum: 42 }] });
    expect(await preparedTexts(db)).toEqual([text(1)]);
  });

  it(`keeps at most ${RECURRING_PER_CONNECTION} per connection, deallocating the one run least recently`, async () => {
    for (let n = 2; n <= RECURRING_PER_CONNECTION; n += 1) await queryRecurring(db, text(n), [0]);
    // Run again, text(1) is now the most recent, so text(2) is the one to go.
    await queryRecurring(db, text(1), [0]);
    await expect(queryRecurring(db, text(RECURRING_PER_CONNECTION + 1), [1])).resolves.toMatchObject({ rows: [{ sum: RECURRING_PER_CONNECTION + 2 }] });
    const held = await preparedTexts(db);
    expect(held).toHaveLength(RECURRING_PER_CONNECTION);
    expect(held).not.toContain(text(2));
    expect(held).toEqual(expect.arrayContaining([text(1), text(3), text(RECURRING_PER_CONNECTION + 1)]));
    // A deallocated text comes back prepared afresh.
    await expect(queryRecurring(db, text(2), [5])).resolves.toMatchObject({ rows: [{ sum: 7 }] });
  });

  it('keeps no name for a text Postgres refused, and a failure of a prepared one leaves it usable', async () => {
    await expect(queryRecurring(db, 'SELEKT 1')).rejects.toThrow(/syntax error/);
    expect(await preparedTexts(db)).not.toContain('SELEKT 1');
    const dividing = 'SELECT 1 / $1::int AS q';
    await expect(queryRecurring(db, dividing, [0])).rejects.toThrow(/division by zero/);
    await expect(queryRecurring(db, dividing, [1])).resolves.toMatchObject({ rows: [{ q: 1 }] });
    expect(await preparedTexts(db)).toHaveLength(RECURRING_PER_CONNECTION);
  });

  it('runs prepared on a transaction’s own connection, and commits with it', async () => {
    const inside = await db.transaction(async (tx) => {
      await queryRecurring(tx, text(100), [1]);
      const { rows } = await tx.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'r\\_%'`);
      return rows.map((row) => row.statement);
    });
    expect(inside).toContain(text(100));
  });
});
