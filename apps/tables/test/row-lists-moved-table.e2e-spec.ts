import { Client } from 'pg';
import { testDatabaseUrl } from '@platform/testing';
import { createTable, filterQuery, newOrg, OrgClient } from './tables-fixtures';

/**
 * A list reads the table's fields from the copy the tables process keeps, and checks it against the table
 * as stored in the statement that reads the rows. Another replica's change (made here in SQL, as its
 * committed PATCH leaves it: a field renamed, the table's version moved on) reaches the next list at once.
 */
describe('row lists of a table another replica changed', () => {
  let org: OrgClient;
  let tableId: string;
  let db: Client;

  /** What a rename of the field `from` commits on another replica, which this process's copy does not see. */
  async function renameElsewhere(from: string, to: string): Promise<void> {
    await db.query('BEGIN');
    await db.query('UPDATE tables.fields SET name = $3, slug = $3 WHERE table_id = $1 AND slug = $2', [tableId, from, to]);
    await db.query('UPDATE tables.user_tables SET version = version + 1 WHERE id = $1', [tableId]);
    await db.query('COMMIT');
  }

  async function list(query = '') {
    const res = await org.api.get(`/tables/${tableId}/rows${query}`);
    return res;
  }

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    org = await newOrg();
    tableId = (
      await createTable(org.api, [
        { name: 'title', field_type: 'text' },
        { name: 'n', field_type: 'number' },
      ])
    ).id;
    for (const [title, n] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]) {
      expect((await org.api.post(`/tables/${tableId}/rows`, { data: { title, n } })).status).toBe(201);
    }
    // The process holds its copy of the table from here on.
    expect((await list()).status).toBe(200);
  });

  afterAll(async () => {
    await db?.end();
  });

  it('answers the rows under the field names as stored, with the total', async () => {
    await renameElsewhere('title', 'heading');
    const res = await list('?sort=n');
    expect(res.status).toBe(200);
    expect(res.body.data.map((row: { data: Record<string, unknown> }) => row.data)).toEqual([
      { heading: 'a', n: 1 },
      { heading: 'b', n: 2 },
      { heading: 'c', n: 3 },
    ]);
    expect(res.body.pagination.total).toBe(3);
  });

  it('filters and sorts by a field name its copy does not know yet, and refuses the old one', async () => {
    await renameElsewhere('heading', 'topic');
    const filtered = await list(`${filterQuery({ topic: { in: ['a', 'c'] } })}&sort=topic&order=desc`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((row: { data: { topic: string } }) => row.data.topic)).toEqual(['c', 'a']);
    expect(filtered.body.pagination.total).toBe(2);
    const old = await list(filterQuery({ heading: 'a' }));
    expect(old.status).toBe(400);
    expect(old.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('answers a page past the end with the total as stored', async () => {
    await renameElsewhere('topic', 'subject');
    const res = await list('?page=5&limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.total).toBe(3);
    const first = await list('?limit=1');
    expect(first.body.data[0].data).toHaveProperty('subject');
  });
});
