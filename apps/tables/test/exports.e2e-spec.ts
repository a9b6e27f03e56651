import 'reflect-metadata';
import { exportEnded, importEnded, objectKey, storageClient, TEST_EXPORT_FILE_TTL_SECONDS, uploadImportFile } from '@platform/testing';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

/** One field of every type an import reads back. */
const FIELDS = [
  { name: 'Email', field_type: 'email', options: { is_unique: true } },
  { name: 'Name', field_type: 'text' },
  { name: 'Notes', field_type: 'long_text' },
  { name: 'Amount', field_type: 'number' },
  { name: 'Price', field_type: 'currency', options: { currency: 'EUR', precision: 2 } },
  { name: 'Active', field_type: 'checkbox' },
  { name: 'Born', field_type: 'date' },
  { name: 'Seen', field_type: 'datetime' },
  { name: 'Stage', field_type: 'select', options: { values: ['new', 'won'] } },
  { name: 'Tags', field_type: 'multi_select', options: { values: ['a', 'b', 'c'] } },
  { name: 'Site', field_type: 'url' },
  { name: 'Phone', field_type: 'phone' },
  { name: 'Files', field_type: 'attachment' },
];

const ROWS = [
  {
    email: 'ada@example.com',
    name: 'Lovelace, "Ada"',
    notes: 'line one\nline two, with a comma',
    amount: 0.1,
    price: 1234567.89,
    active: true,
    born: '1815-12-10',
    seen: '2026-01-02T03:04:05.678Z',
    stage: 'won',
    tags: ['a', 'c'],
    site: 'https://example.com/ada',
    phone: '+14155550123',
    files: [{ url: 'https://files.example.com/docs/report.pdf', filename: 'report.pdf' }],
  },
  { email: 'bob@example.com', name: 'Bob', notes: null, amount: -3.25, price: 0, active: false, born: null, seen: null, stage: 'new', tags: null, site: null, phone: null, files: null },
  { email: 'cy@example.com', name: 'Ünïcödé ✓', notes: 'short', amount: 1e-7, price: null, active: null, born: '2000-02-29', seen: null, stage: null, tags: ['b'], site: null, phone: null, files: null },
];

describe('exports', () => {
  let org: OrgClient;
  const storage = storageClient();

  beforeAll(async () => {
    org = await newOrg();
  });
  afterAll(() => storage.close());

  async function tableWithRows(rows: unknown[] = ROWS): Promise<string> {
    const tableId = (await createTable(org.api, FIELDS)).id;
    const created = await org.api.post(`/tables/${tableId}/rows/batch`, { rows: rows.map((data) => ({ data })) });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    return tableId;
  }
  const rowsOf = async (tableId: string) => (await org.api.get(`/tables/${tableId}/rows?limit=100&sort=email`)).body.data.map((row: any) => row.data);
  async function exported(tableId: string, body: Record<string, unknown>) {
    const answer = await org.api.post(`/tables/${tableId}/exports`, body);
    expect([answer.status, answer.body.error]).toEqual([202, undefined]);
    expect(answer.body.data).toMatchObject({ table_id: tableId, status: 'queued', format: body.format, rows_done: 0, finished_at: null, download_url: null, expires_at: null });
    return exportEnded(org.api, tableId, answer.body.data.id);
  }
  async function download(done: any): Promise<string> {
    expect(done.status).toBe('completed');
    const file = await fetch(done.download_url);
    expect(file.status).toBe(200);
    return file.text();
  }

  it('exports every field as CSV, in order, and the file imports back into a table with the same fields as the same rows', async () => {
    const tableId = await tableWithRows();
    const done = await exported(tableId, { format: 'csv' });
    expect(done).toMatchObject({ status: 'completed', rows_done: 3 });
    expect(Date.parse(done.expires_at) - Date.parse(done.finished_at)).toBe(TEST_EXPORT_FILE_TTL_SECONDS * 1_000);
    const csv = await download(done);
    expect(csv.split('\n')[0]).toBe(FIELDS.map((field) => field.name.toLowerCase()).join(','));
    expect(csv).toContain('"Lovelace, ""Ada"""');

    const copyId = (await createTable(org.api, FIELDS)).id;
    const uploadId = await uploadImportFile(org.api, copyId, csv, 'export.csv');
    const started = await org.api.post(`/tables/${copyId}/imports`, { upload_id: uploadId, format: 'csv' });
    expect(started.status).toBe(202);
    expect(await importEnded(org.api, copyId, started.body.data.id)).toMatchObject({ status: 'completed', rows_created: 3, errors: [] });
    expect(await rowsOf(copyId)).toEqual(await rowsOf(tableId));
  });

  it('exports NDJSON with the filter, sort and fields of the rows list', async () => {
    const tableId = await tableWithRows();
    const done = await exported(tableId, { format: 'ndjson', filter: { amount: { lt: 1 } }, sort: 'amount', order: 'desc', fields: ['amount', 'email', 'files'] });
    expect(done).toMatchObject({ status: 'completed', rows_done: 3 });
    const lines = (await download(done)).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { amount: 0.1, email: 'ada@example.com', files: ROWS[0].files },
      { amount: 1e-7, email: 'cy@example.com', files: null },
      { amount: -3.25, email: 'bob@example.com', files: null },
    ]);
    expect(Object.keys(JSON.parse(lines[0]))).toEqual(['amount', 'email', 'files']);

    const some = await exported(tableId, { format: 'csv', filter: { or: [{ stage: 'won' }, { tags: { contains: 'b' } }] }, sort: 'email', fields: ['email', 'tags'] });
    expect(some.rows_done).toBe(2);
    expect(await download(some)).toBe('email,tags\nada@example.com,a;c\ncy@example.com,b\n');
    const none = await exported(tableId, { format: 'csv', filter: { email: 'nobody@example.com' }, fields: ['name'] });
    expect([none.rows_done, await download(none)]).toEqual([0, 'name\n']);
  });

  it('writes the rows of one snapshot: rows and changes committed while it runs are not in it', async () => {
    const tableId = (await createTable(org.api, [{ name: 'Key', field_type: 'text' }, { name: 'Amount', field_type: 'number' }])).id;
    const before = 20_000;
    const csv = `key,amount\n${Array.from({ length: before }, (_, i) => `before-${i},10`).join('\n')}\n`;
    const loaded = await org.api.post(`/tables/${tableId}/imports`, { upload_id: await uploadImportFile(org.api, tableId, csv), format: 'csv' });
    expect(await importEnded(org.api, tableId, loaded.body.data.id, 120_000)).toMatchObject({ status: 'completed', rows_created: before });
    const firstTwo = (await org.api.get(`/tables/${tableId}/rows?limit=2`)).body.data.map((row: any) => row.id);

    const started = await org.api.post(`/tables/${tableId}/exports`, { format: 'csv', fields: ['key', 'amount'] });
    expect(started.status).toBe(202);
    // Meanwhile: a new row, then a transfer of 1 between two old rows (their sum stays 20), in turns.
    // On a quiet machine the export may be over before the second turn: the checks below hold either way.
    let written = 0;
    let status = 'queued';
    while (status === 'queued' || status === 'running') {
      written += 1;
      expect((await org.api.post(`/tables/${tableId}/rows`, { data: { key: `during-${written}`, amount: 0 } })).status).toBe(201);
      const transfer = await org.api.patch(`/tables/${tableId}/rows/batch`, {
        rows: [
          { id: firstTwo[0], data: { amount: 10 - written } },
          { id: firstTwo[1], data: { amount: 10 + written } },
        ],
      });
      expect(transfer.status).toBe(200);
      status = (await org.api.get(`/tables/${tableId}/exports/${started.body.data.id}`)).body.data.status;
    }
    const done = await exportEnded(org.api, tableId, started.body.data.id);
    const lines = (await download(done)).trim().split('\n').slice(1).map((line) => line.split(','));
    expect(lines.length).toBe(done.rows_done);
    // In the table's physical order, which is not the order of the writes (a new row may take the room an update freed).
    const during = lines
      .filter(([key]) => key.startsWith('during-'))
      .map(([key]) => Number(key.slice('during-'.length)))
      .sort((a, b) => a - b);
    // The rows created before the snapshot, and none after it: a prefix of the writes, with no gap.
    expect(during).toEqual(Array.from({ length: during.length }, (_, i) => i + 1));
    // The snapshot may come after the last write (the loop saw the export running, then finished): never more.
    expect(during.length).toBeLessThanOrEqual(written);
    expect(lines.length).toBe(before + during.length);
    expect(lines.reduce((sum, [, amount]) => sum + Number(amount), 0)).toBe(before * 10);
  });

  it('hands out a download link while the file is kept, then shows the export expired and removes the file', async () => {
    const tableId = await tableWithRows(ROWS.slice(0, 1));
    const done = await exported(tableId, { format: 'ndjson' });
    const key = objectKey(org.orgId, tableId, done.id);
    expect(await storage.exists(key)).toBe(true);
    const file = await fetch(done.download_url);
    expect(file.headers.get('content-disposition')).toContain(`export-${done.id}.ndjson`);
    expect(JSON.parse(await file.text())).toEqual((await rowsOf(tableId))[0]);

    const deadline = Date.parse(done.expires_at) + 20_000;
    let read: any;
    do {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      read = (await org.api.get(`/tables/${tableId}/exports/${done.id}`)).body.data;
    } while ((read.status !== 'expired' || (await storage.exists(key))) && Date.now() < deadline);
    expect(read).toMatchObject({ status: 'expired', download_url: null, rows_done: 1, expires_at: done.expires_at });
    expect(await storage.exists(key)).toBe(false);
  }, 90_000);

  it('refuses bad input with the field it names, before anything is queued', async () => {
    const tableId = await tableWithRows(ROWS.slice(0, 1));
    const cases: Array<[unknown, string]> = [
      [{}, 'format'],
      [{ format: 'xlsx' }, 'format'],
      [{ format: 'csv', filter: '{"amount":1}' }, 'filter'],
      [{ format: 'csv', filter: { nope: 1 } }, 'filter.nope'],
      [{ format: 'csv', filter: { amount: { gt: 'many' } } }, 'filter.amount.gt'],
      [{ format: 'csv', sort: 'nope' }, 'sort'],
      [{ format: 'csv', order: 'up' }, 'order'],
      [{ format: 'csv', fields: [] }, 'fields'],
      [{ format: 'csv', fields: ['email', 'email'] }, 'fields'],
      [{ format: 'csv', fields: ['email', 'nope'] }, 'fields[1]'],
      [{ format: 'csv', fields: ['email', 7] }, 'fields'],
      [{ format: 'csv', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const answer = await org.api.post(`/tables/${tableId}/exports`, body);
      expect([JSON.stringify(body), answer.status, answer.body.error?.code, answer.body.error?.details?.field]).toEqual([JSON.stringify(body), 400, 'VALIDATION_ERROR', field]);
    }
    const unknownTable = await org.api.post('/tables/00000000-0000-4000-8000-000000000000/exports', { format: 'csv' });
    expect([unknownTable.status, unknownTable.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const unknownExport = await org.api.get(`/tables/${tableId}/exports/00000000-0000-4000-8000-000000000000`);
    expect([unknownExport.status, unknownExport.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await org.api.get(`/tables/${tableId}/exports/not-a-uuid`)).status).toBe(404);
  });

  it('takes tables:read, and keeps an export to its organization', async () => {
    const tableId = await tableWithRows(ROWS.slice(0, 1));
    const writer = await newOrg('tables:write');
    const writerTable = (await createTable(writer.api, FIELDS)).id;
    const refused = await writer.api.post(`/tables/${writerTable}/exports`, { format: 'csv' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const reader = await newOrg('tables:read');
    const readable = await reader.api.post(`/tables/00000000-0000-4000-8000-000000000000/exports`, { format: 'csv' });
    expect(readable.status).toBe(404);

    const done = await exported(tableId, { format: 'csv' });
    const other = await newOrg();
    const foreign = await other.api.get(`/tables/${tableId}/exports/${done.id}`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const foreignStart = await other.api.post(`/tables/${tableId}/exports`, { format: 'csv' });
    expect([foreignStart.status, foreignStart.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const otherTable = (await createTable(other.api, FIELDS)).id;
    expect((await other.api.get(`/tables/${otherTable}/exports/${done.id}`)).status).toBe(404);
  });
});
