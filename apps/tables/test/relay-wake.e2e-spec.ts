import 'reflect-metadata';
import { eventually, testDatabaseUrl } from '@platform/testing';
import { Client } from 'pg';
import { createTable, newOrg } from './tables-fixtures';

/** The relay does not wait for its next poll: a commit into the outbox NOTIFYs the channel it LISTENs on. */
describe('tables relay wake-up', () => {
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
  });

  it('announces every committed create on the tables outbox channel', async () => {
    const org = await newOrg();
    const { id: tableId } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    const announced: string[] = [];
    db.on('notification', (message) => announced.push(message.channel));
    await db.query('LISTEN tables_outbox');
    const created = await org.api.post(`/tables/${tableId}/rows`, { data: { n: 1 } });
    expect(created.status).toBe(201);
    await eventually(() => expect(announced).toContain('tables_outbox'));
    // A write that fails commits nothing and announces nothing.
    announced.length = 0;
    const refused = await org.api.post(`/tables/${tableId}/rows`, { data: { n: 'not a number' } });
    expect(refused.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(announced).toEqual([]);
  });

  it('has the tables relay listening on that channel', async () => {
    await eventually(async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'tables-relay' AND query = 'LISTEN "tables_outbox"'`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    });
  });
});
