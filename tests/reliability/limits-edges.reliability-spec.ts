import { Client } from 'pg';
import { eventually, Receiver } from '@platform/testing';
import { IsolatedStack, IsolatedOrg, startIsolatedStack } from '@platform/testing/reliability';

const MILLION = 1_000_000;
const RATE_LIMIT = 300;

/** What the attacker's run measured, printed for docs/reliability.md. */
const figures: Record<string, number | string> = {};

/**
 * The attacker's edges, replayed against a stack of its own: a schema change on a table of 1,000,000 rows
 * (and a crash in the middle of the index build it leaves behind), names in any script, the webhook limit,
 * a webhook deleted during its backlog, recoveries that overlap, a forged X-Forwarded-For, a domain held
 * without being verified, and upload tickets asked for in bulk.
 */
describe('limits that hold: the edges', () => {
  let stack: IsolatedStack;
  let receiver: Receiver;
  let db: Client;

  beforeAll(async () => {
    stack = await startIsolatedStack('limits-edges', {
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      DOMAIN_VERIFICATION_WINDOW: '3s',
      DOMAIN_RECHECK_SCHEDULE: '1s,2s',
      DNS_LOOKUP_TIMEOUT_MS: '500',
      // The gateway's own deadline, not the 3 s of the fault specs: the limits are judged against what production
      // allows (CI, with the e2e suite beside this one, once took over 3 s to drop the 1,000,000-row table).
      NATS_REQUEST_TIMEOUT_MS: '10000',
    });
    receiver = await Receiver.start();
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    process.stdout.write(`limits-edges figures: ${JSON.stringify(figures, null, 2)}\n`);
    await db?.end();
    await receiver?.close();
    await stack?.stop();
  }, 60_000);

  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const result = await work();
    return [result, Math.round(performance.now() - started)];
  };

  const pendingIndexes = async (tableId: string) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM tables.pending_indexes WHERE table_id = $1', [tableId])).rows[0].n;
  const invalidIndexes = async () =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'tables' AND NOT i.indisvalid`)).rows[0].n;

  describe('a table of 1,000,000 rows', () => {
    let org: IsolatedOrg;
    let tableId: string;

    beforeAll(async () => {
      org = await stack.createOrg();
      const table = await org.api.post('/tables', { name: 'Million', fields: [{ name: 'Title', field_type: 'text' }, { name: 'N', field_type: 'number' }] });
      expect(table.status).toBe(201);
      tableId = table.body.data.id;
      const [title, n] = table.body.data.fields.map((field: { id: string }) => `f_${field.id.replace(/-/g, '')}`);
      const { rows: [{ storage_name: storage }] } = await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId]);
      const [, fillMs] = await timed(() =>
        db.query(`INSERT INTO tables.${storage} (id, ${title}, ${n}) SELECT gen_random_uuid(), 'row ' || i, i FROM generate_series(1, ${MILLION}) AS i`),
      );
      await db.query(`ANALYZE tables.${storage}`);
      figures.fill_1m_rows_ms = fillMs;
    }, 600_000);

    // Its index builds would go on behind the other tests for minutes: deleting the table cancels them.
    afterAll(async () => {
      expect((await org.api.delete(`/tables/${tableId}`)).status).toBe(200);
    }, 120_000);

    it('adds 100 fields within 2 s, and rows are written while their indexes are built afterwards', async () => {
      const fields = Array.from({ length: 100 }, (_, i) => ({ name: `Extra ${i}`, field_type: ['text', 'number', 'date', 'checkbox'][i % 4] }));
      const [added, addMs] = await timed(() => org.api.patch(`/tables/${tableId}`, { fields }));
      figures.add_100_fields_on_1m_rows_ms = addMs;
      expect(added.status).toBe(200);
      expect(added.body.data.fields).toHaveLength(102);
      expect(addMs).toBeLessThan(2_000);
      expect(await pendingIndexes(tableId)).toBeGreaterThan(0);

      // Writes go on while the indexes are built.
      await eventually(async () => expect((await db.query(`SELECT 1 FROM pg_stat_progress_create_index`)).rowCount).toBeGreaterThan(0), { timeoutMs: 60_000, intervalMs: 50 });
      const during = await timed(() => org.api.post(`/tables/${tableId}/rows`, { data: { title: 'written during the build', extra_0: 'x' } }));
      expect(during[0].status).toBe(201);
      figures.row_create_during_index_build_ms = during[1];
    }, 120_000);

    it('removes 50 fields within 2 s', async () => {
      const table = await org.api.get(`/tables/${tableId}`);
      const removed = table.body.data.fields.slice(2, 52).map((field: { id: string }) => field.id);
      const [answer, removeMs] = await timed(() => org.api.patch(`/tables/${tableId}`, { remove_fields: removed }));
      figures.remove_50_fields_on_1m_rows_ms = removeMs;
      expect(answer.status).toBe(200);
      expect(answer.body.data.fields).toHaveLength(52);
      expect(removeMs).toBeLessThan(2_000);
    }, 120_000);
  });

  it('finishes the index builds a crashed tables process left, and the new fields filter and sort', async () => {
    // The resume is the same at any size; 50,000 rows keep each build long enough to be caught in the middle.
    const org = await stack.createOrg();
    const table = await org.api.post('/tables', { name: 'Resumed', fields: [{ name: 'Title', field_type: 'text' }] });
    expect(table.status).toBe(201);
    const tableId: string = table.body.data.id;
    const [title] = table.body.data.fields.map((field: { id: string }) => `f_${field.id.replace(/-/g, '')}`);
    const { rows: [{ storage_name: storage }] } = await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId]);
    await db.query(`INSERT INTO tables.${storage} (id, ${title}) SELECT gen_random_uuid(), 'row ' || i FROM generate_series(1, 50000) AS i`);
    const fields = Array.from({ length: 20 }, (_, i) => ({ name: `Extra ${i}`, field_type: ['text', 'number'][i % 2] }));
    expect((await org.api.patch(`/tables/${tableId}`, { fields })).status).toBe(200);
    expect((await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'written during the build', extra_0: 'x' } })).status).toBe(201);

    await eventually(async () => expect((await db.query(`SELECT 1 FROM pg_stat_progress_create_index`)).rowCount).toBeGreaterThan(0), { timeoutMs: 60_000, intervalMs: 20 });
    await stack.kill('tables');
    await stack.restart('tables', 180_000);
    const [, buildMs] = await timed(() =>
      eventually(async () => {
        expect(await pendingIndexes(tableId)).toBe(0);
        expect(await invalidIndexes()).toBe(0);
      }, { timeoutMs: 600_000, intervalMs: 500 }),
    );
    figures.index_builds_after_restart_50k_rows_ms = buildMs;
    const filtered = await org.api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent(JSON.stringify({ extra_0: 'x' }))}&sort=extra_0`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((row: { data: { title: string } }) => row.data.title)).toEqual(['written during the build']);
  }, 900_000);

  it('takes table and field names in any script', async () => {
    const org = await stack.createOrg();
    const created = await org.api.post('/tables', { name: '名前', fields: [{ name: '🚀', field_type: 'text' }] });
    expect(created.status).toBe(201);
    expect(created.body.data.slug).toMatch(/^t_[0-9a-f]{8}$/);
    expect(created.body.data.fields[0].slug).toMatch(/^f_[0-9a-f]{8}$/);
  });

  it('holds an organization to 100 webhooks, and deletes one during its backlog at once', async () => {
    const org = await stack.createOrg();
    receiver.on('/edges-backlog', () => ({ status: 503 }));
    const first = await org.api.post('/webhooks', { name: 'Backlog', url: receiver.url('/edges-backlog'), events: ['row.created'] });
    expect(first.status).toBe(201);
    const hooks = await Promise.all(
      Array.from({ length: 100 }, (_, n) => org.api.post('/webhooks', { name: `Hook ${n}`, url: receiver.url('/edges-idle'), events: ['member.invited'] })),
    );
    expect(hooks.filter((hook) => hook.status === 201)).toHaveLength(99);
    const refused = hooks.find((hook) => hook.status !== 201)!;
    expect([refused.status, refused.body.error.code]).toEqual([400, 'LIMIT_EXCEEDED']);

    const backlogged = first.body.data.id;
    const table = await org.api.post('/tables', { name: 'Backlog', fields: [{ name: 'N', field_type: 'number' }] });
    for (let batch = 0; batch < 10; batch += 1) {
      const rows = Array.from({ length: 100 }, (_, i) => ({ data: { n: batch * 100 + i } }));
      expect((await org.api.post(`/tables/${table.body.data.id}/rows/batch`, { rows })).status).toBe(201);
    }
    await eventually(() => expect(receiver.at('/edges-backlog').length).toBeGreaterThan(100), { timeoutMs: 120_000 });
    const [deleted, deleteMs] = await timed(() => org.api.delete(`/webhooks/${backlogged}`));
    expect(deleted.status).toBe(200);
    figures.delete_webhook_with_backlog_ms = deleteMs;
    expect(deleteMs).toBeLessThan(2_000);
    const created = await org.api.post('/webhooks', { name: 'After the delete', url: receiver.url('/edges-idle'), events: ['row.created'] });
    expect(created.status).toBe(201);
  }, 300_000);

  it('runs one recovery of a webhook at a time and follows it to its end', async () => {
    const org = await stack.createOrg();
    const hook = await org.api.post('/webhooks', { name: 'Recovered', url: receiver.url('/edges-recovered'), events: ['row.created'] });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const answers = await Promise.all([0, 1].map(() => org.api.post(`/webhooks/${hook.body.data.id}/recover`, { since })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error.code).toBe('CONFLICT');
    const { recovery_id: recoveryId } = answers.find((answer) => answer.status === 202)!.body.data;
    await eventually(async () => expect((await org.api.get(`/webhooks/${hook.body.data.id}/recoveries/${recoveryId}`)).body.data).toMatchObject({ status: 'finished', queued: 0 }));
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 5; i += 1) {
      const res = await fetch(`${stack.gatewayUrl}/tables`, { headers: { authorization: `Bearer guess_${i}`, 'x-forwarded-for': `198.51.100.${i % 250}` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(RATE_LIMIT)).toEqual(Array(5).fill(429));
  }, 120_000);

  it('releases a name its organization let fail to another organization', async () => {
    const [holder, other] = [await stack.createOrg(), await stack.createOrg()];
    const name = `held-${Date.now().toString(36)}.example.com`;
    const held = await holder.api.post('/domains', { domain: name });
    expect(held.status).toBe(201);
    expect((await other.api.post('/domains', { domain: name })).body.error.code).toBe('CONFLICT');
    await eventually(async () => expect((await holder.api.get(`/domains/${held.body.data.id}`)).body.data.status).toBe('failed'), { timeoutMs: 60_000 });
    const taken = await other.api.post('/domains', { domain: name });
    expect(taken.status).toBe(201);
    expect((await holder.api.get(`/domains/${held.body.data.id}`)).status).toBe(404);
  }, 90_000);

  it('hands out upload tickets only for tables with an attachment field, at a bounded rate', async () => {
    const org = await stack.createOrg();
    const plain = await org.api.post('/tables', { name: 'Plain', fields: [{ name: 'Title', field_type: 'text' }] });
    const ticket = { filename: 'a.txt', mime_type: 'text/plain', size: 1 };
    expect((await org.api.post(`/tables/${plain.body.data.id}/uploads`, ticket)).body.error.code).toBe('BAD_REQUEST');
    const files = await org.api.post('/tables', { name: 'Files', fields: [{ name: 'Files', field_type: 'attachment' }] });
    const statuses: number[] = [];
    // Bursts of 25 at once: the request deadline is for the service, not the rate limit, under test.
    for (let burst = 0; burst < 5; burst += 1) {
      const answers = await Promise.all(Array.from({ length: 25 }, () => org.api.post(`/tables/${files.body.data.id}/uploads`, ticket)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(120);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  }, 120_000);
});
