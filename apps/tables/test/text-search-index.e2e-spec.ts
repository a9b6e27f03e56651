import { Client } from 'pg';
import { ApiClient, apiClient, createTestOrg, eventually, testDatabaseUrl } from '@platform/testing';

/**
 * `contains` and `starts_with` on a `searchable` text-like field are served by a trigram index, not by
 * reading every row; a field that does not ask for one has none, and its filters answer the same rows.
 */
describe('text filters on a large table', () => {
  let api: ApiClient;
  let db: Client;
  let tableId: string;
  let storage: string;
  const columns: Record<string, string> = {};

  const searchIndexes = async (rowsTable = storage) =>
    (await db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'tables' AND tablename = $1 AND indexdef LIKE '%gin_trgm_ops%'`, [rowsTable])).rows as {
      indexname: string;
      indexdef: string;
    }[];
  // pg_indexes writes a column name unquoted when it needs no quotes.
  const indexes = (definition: string, column: string) => new RegExp(`\\(${column} `).test(definition);
  const indexScans = async (indexname: string) =>
    (await db.query('SELECT idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = $2', ['tables', indexname])).rows[0].n as number;
  /** Scans of the trigram index of a column. */
  const scansOf = async (column: string, rowsTable = storage) => {
    const [index] = (await searchIndexes(rowsTable)).filter((i) => indexes(i.indexdef, column));
    return indexScans(index.indexname);
  };

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    const table = await api.post('/tables', {
      name: 'Searchable',
      fields: [
        { name: 'Title', field_type: 'text', options: { searchable: true } },
        { name: 'Notes', field_type: 'long_text', options: { searchable: true } },
        { name: 'Status', field_type: 'select', options: { values: ['open', 'closed'], searchable: true } },
        { name: 'Label', field_type: 'text' },
        { name: 'N', field_type: 'number' },
      ],
    });
    expect(table.status).toBe(201);
    tableId = table.body.data.id;
    storage = (await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId])).rows[0].storage_name;
    for (const field of (await db.query('SELECT slug, column_name FROM tables.fields WHERE table_id = $1', [tableId])).rows) columns[field.slug] = field.column_name;
  });

  afterAll(async () => {
    await db?.end();
  });

  const fieldIdOf = async (slug: string) =>
    ((await api.get(`/tables/${tableId}`)).body.data.fields as { id: string; slug: string }[]).find((field) => field.slug === slug)!.id;

  it('gives a trigram index to the fields that ask for it and to no other, and adds or drops it as the option changes', async () => {
    const indexed = (await searchIndexes()).map((i) => i.indexdef);
    expect(indexed).toHaveLength(3);
    for (const slug of ['title', 'notes', 'status']) expect(indexed.some((def) => indexes(def, columns[slug]))).toBe(true);
    const fields = (await api.get(`/tables/${tableId}`)).body.data.fields as { id: string; slug: string; options: Record<string, unknown> }[];
    const fieldId = (slug: string) => fields.find((field) => field.slug === slug)!.id;
    expect(fields.find((field) => field.slug === 'title')!.options).toEqual({ searchable: true });
    expect(fields.find((field) => field.slug === 'label')!.options).toEqual({});

    const added = await api.patch(`/tables/${tableId}`, { fields: [{ name: 'Email', field_type: 'email', options: { searchable: true } }] });
    expect(added.status).toBe(200);
    const email = (await db.query(`SELECT column_name FROM tables.fields WHERE table_id = $1 AND slug = 'email'`, [tableId])).rows[0].column_name;
    // A field added to a table is indexed right after its change commits, without blocking writes.
    await eventually(async () => expect((await searchIndexes()).some((i) => indexes(i.indexdef, email))).toBe(true), { timeoutMs: 20_000 });

    // Turned off, the index goes with the change; turned on, it is built after it, as for an added field.
    const toggled = await api.patch(`/tables/${tableId}`, {
      fields: [
        { id: fieldId('status'), options: { searchable: false } },
        { id: fieldId('label'), options: { searchable: true } },
      ],
    });
    expect(toggled.status).toBe(200);
    expect((await searchIndexes()).some((i) => indexes(i.indexdef, columns.status))).toBe(false);
    await eventually(async () => expect((await searchIndexes()).some((i) => indexes(i.indexdef, columns.label))).toBe(true), { timeoutMs: 20_000 });
    const options = (slug: string) => (toggled.body.data.fields as typeof fields).find((field) => field.slug === slug)!.options;
    expect([options('status'), options('label')]).toEqual([{ values: ['open', 'closed'] }, { searchable: true }]);
  });

  it('refuses `searchable` on a type no trigram index serves, and anything but a boolean', async () => {
    const number = await api.post('/tables', { name: 'Not searchable', fields: [{ name: 'N', field_type: 'number', options: { searchable: true } }] });
    expect(number.status).toBe(400);
    expect(number.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[0].options.searchable' } });
    const text = await api.post('/tables', { name: 'Not searchable', fields: [{ name: 'T', field_type: 'text', options: { searchable: 'yes' } }] });
    expect(text.status).toBe(400);
    expect(text.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[0].options.searchable' } });
  });

  it('answers an `or` of contains filters from the index on 20,000 rows, with the same rows a full read finds', async () => {
    await db.query(
      `INSERT INTO tables."${storage}" (id, created_at, updated_at, "${columns.title}", "${columns.notes}", "${columns.status}", "${columns.label}", "${columns.n}")
       SELECT gen_random_uuid(), now() - g * interval '1 second', now(), 'Item ' || md5(g::text), 'Note ' || md5((g * 7)::text), 'open', 'Label ' || md5((g * 3)::text), g
       FROM generate_series(1, 20000) g`,
    );
    await db.query(`UPDATE tables.row_counts SET n = n + 20000 WHERE table_id = $1 AND slot = 0`, [tableId]);
    await db.query(`VACUUM ANALYZE tables."${storage}"`);
    const before = await scansOf(columns.title);
    const filter = { or: [{ title: { contains: 'ABC1' } }, { notes: { starts_with: 'note 9f' } }] };
    const res = await api.get(`/tables/${tableId}/rows?limit=100&filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect(res.status).toBe(200);
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM tables."${storage}" WHERE "${columns.title}" ILIKE '%abc1%' OR "${columns.notes}" ILIKE 'note 9f%'`,
    );
    expect(rows[0].n).toBeGreaterThan(0);
    expect(res.body.pagination.total).toBe(rows[0].n);
    await eventually(async () => expect(await scansOf(columns.title)).toBeGreaterThan(before), { timeoutMs: 15_000, intervalMs: 500 });
  });

  it('answers a contains filter on a field without a trigram index with the rows a full read finds', async () => {
    const unindexed = await api.patch(`/tables/${tableId}`, { fields: [{ id: await fieldIdOf('title'), options: { searchable: false } }] });
    expect(unindexed.status).toBe(200);
    expect((await searchIndexes()).some((i) => indexes(i.indexdef, columns.title))).toBe(false);
    const res = await api.get(`/tables/${tableId}/rows?limit=100&filter=${encodeURIComponent(JSON.stringify({ title: { contains: 'ABC1' } }))}`);
    expect(res.status).toBe(200);
    const { rows } = await db.query(`SELECT id FROM tables."${storage}" WHERE "${columns.title}" ILIKE '%abc1%' ORDER BY created_at, id`);
    expect(rows.length).toBeGreaterThan(0);
    expect(res.body.pagination.total).toBe(rows.length);
    expect(res.body.data.map((row: { id: string }) => row.id)).toEqual(rows.slice(0, 100).map((row) => row.id));
  });

  it('reads the few matches of a filter and sorts them, instead of walking the sort index past every other row', async () => {
    // A table whose text columns have no statistics: the planner then guesses that a `contains` matches
    // far more rows than it does, and would walk the (created_at, id) index, filtering ~10,000 rows for
    // one page, as it does on large tables whenever its estimate of a pattern is off.
    const table = await api.post('/tables', {
      name: 'Few matches',
      fields: [
        { name: 'Title', field_type: 'text', options: { searchable: true } },
        { name: 'Notes', field_type: 'long_text', options: { searchable: true } },
      ],
    });
    expect(table.status).toBe(201);
    const fewId = table.body.data.id as string;
    const few = (await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [fewId])).rows[0].storage_name as string;
    const column = Object.fromEntries((await db.query('SELECT slug, column_name FROM tables.fields WHERE table_id = $1', [fewId])).rows.map((f) => [f.slug, f.column_name]));
    await db.query(`ALTER TABLE tables."${few}" ALTER COLUMN "${column.title}" SET STATISTICS 0, ALTER COLUMN "${column.notes}" SET STATISTICS 0`);
    await db.query(
      `INSERT INTO tables."${few}" (id, created_at, updated_at, "${column.title}", "${column.notes}")
       SELECT gen_random_uuid(), now() - g * interval '1 second', now(), 'Item ' || md5(g::text), 'Note ' || md5((g * 7)::text)
       FROM generate_series(1, 20000) g`,
    );
    await db.query(`UPDATE tables.row_counts SET n = n + 20000 WHERE table_id = $1 AND slot = 0`, [fewId]);
    await db.query(`VACUUM ANALYZE tables."${few}"`);
    const created = (await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'tables' AND tablename = $1 AND indexdef LIKE '%(created_at, id)'`, [few])).rows[0].indexname as string;
    const filter = encodeURIComponent(JSON.stringify({ or: [{ title: { contains: 'ABC1' } }, { notes: { contains: 'fed0' } }] }));
    const { rows: expected } = await db.query(
      `SELECT id FROM tables."${few}" WHERE "${column.title}" ILIKE '%abc1%' OR "${column.notes}" ILIKE '%fed0%' ORDER BY created_at DESC, id DESC`,
    );
    // Few enough that reading them all beats the walk (matches² ≤ page × rows), more than one page.
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length ** 2).toBeLessThanOrEqual(11 * 20_000);
    const [titleScans, walks] = [await scansOf(column.title, few), await indexScans(created)];
    const list = (cursor?: string) => api.get(`/tables/${fewId}/rows?limit=10&sort=created_at&order=desc&filter=${filter}${cursor ? `&cursor=${cursor}` : ''}`);

    const first = await list();
    expect(first.status).toBe(200);
    // Read this way, both of the request's statements (the count, then the page) scan the title's trigram
    // index: once both scans show, their statistics have arrived, and the (created_at, id) index, which
    // the walk reads, was not scanned for them. Walked, the page never scans the trigram index.
    await eventually(async () => expect(await scansOf(column.title, few)).toBeGreaterThanOrEqual(titleScans + 2), { timeoutMs: 20_000, intervalMs: 500 });
    expect(await indexScans(created)).toBe(walks);

    // Every match comes once, in the order asked, across the pages.
    const seen: string[] = [];
    for (let page = first; ; ) {
      expect(page.status).toBe(200);
      expect(page.body.pagination.total).toBe(expected.length);
      seen.push(...page.body.data.map((row: { id: string }) => row.id));
      if (!page.body.pagination.next_cursor) break;
      page = await list(page.body.pagination.next_cursor);
    }
    expect(seen).toEqual(expected.map((row) => row.id));
  });
});
