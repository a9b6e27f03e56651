import 'reflect-metadata';
import { ROW_DATA_MAX_BYTES } from '@contracts';
import { exportEnded, importEnded, objectKey, readOrgEvents, storageClient, TEST_IMPORT_MAX_BYTES, uploadImportFile } from '@platform/testing';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

const FIELDS = [
  { name: 'Email', field_type: 'email', is_required: true, options: { is_unique: true } },
  { name: 'Full name', field_type: 'text' },
  { name: 'Amount', field_type: 'number' },
  { name: 'Active', field_type: 'checkbox' },
  { name: 'Joined', field_type: 'date' },
  { name: 'Tags', field_type: 'multi_select', options: { values: ['a', 'b', 'c'] } },
];

describe('imports', () => {
  let org: OrgClient;
  const storage = storageClient();

  beforeAll(async () => {
    org = await newOrg();
  });
  afterAll(() => storage.close());

  const table = async () => (await createTable(org.api, FIELDS)).id;
  const rowsOf = async (tableId: string) => (await org.api.get(`/tables/${tableId}/rows?limit=100&sort=email`)).body.data.map((row: any) => row.data);
  async function startImport(tableId: string, content: string | Buffer, options: Record<string, unknown> = {}) {
    const uploadId = await uploadImportFile(org.api, tableId, content);
    return { uploadId, answer: await org.api.post(`/tables/${tableId}/imports`, { upload_id: uploadId, format: 'csv', ...options }) };
  }
  async function imported(tableId: string, content: string | Buffer, options: Record<string, unknown> = {}) {
    const { uploadId, answer } = await startImport(tableId, content, options);
    expect([answer.status, answer.body.error]).toEqual([202, undefined]);
    return { uploadId, result: await importEnded(org.api, tableId, answer.body.data.id) };
  }

  it('imports a CSV by field name or slug, parsing cells by type, with one table.imported event, and removes the upload', async () => {
    const tableId = await table();
    const csv = '\uFEFFemail,FULL NAME,amount,active,joined,tags\r\nada@example.com,"Lovelace, Ada",12.5,yes,1815-12-10,a;b\r\nbob@example.com,"Bob ""B""",,0,,\r\n';
    const { uploadId, result } = await imported(tableId, csv);
    expect(result).toMatchObject({ status: 'completed', format: 'csv', mode: 'insert', on_error: 'abort', rows_done: 2, rows_created: 2, rows_updated: 0, rows_failed: 0, errors: [] });
    expect(result.started_at).not.toBeNull();
    expect(result.finished_at).not.toBeNull();
    expect(await rowsOf(tableId)).toEqual([
      { email: 'ada@example.com', full_name: 'Lovelace, Ada', amount: 12.5, active: true, joined: '1815-12-10', tags: ['a', 'b'] },
      { email: 'bob@example.com', full_name: 'Bob "B"', amount: null, active: false, joined: null, tags: null },
    ]);
    expect((await org.api.get(`/tables/${tableId}`)).body.data.row_count).toBe(2);
    const events = await readOrgEvents(org.orgId, { count: 2 });
    expect(events.map((e) => e.event.event)).toEqual(['table.created', 'table.imported']);
    expect(events[1].event.data).toEqual({ table_id: tableId, import_id: result.id, rows_created: 2, rows_updated: 0, rows_failed: 0 });
    await expectGone(objectKey(org.orgId, tableId, uploadId));
    const listed = await org.api.get(`/tables/${tableId}/imports`);
    expect(listed.body.data.map((item: any) => item.id)).toEqual([result.id]);
    expect(listed.body.pagination).toMatchObject({ page: 1, total: 1 });
  });

  it('upserts by a unique field and imports NDJSON', async () => {
    const tableId = await table();
    await imported(tableId, 'email,full_name,amount\nada@example.com,Ada,1\nbob@example.com,Bob,2\n');
    const { result } = await imported(tableId, 'email,amount\nADA@example.com,5\nbob@example.com,2\ncy@example.com,3\n', { mode: 'upsert', upsert_on: 'email' });
    expect(result).toMatchObject({ status: 'completed', rows_done: 3, rows_created: 1, rows_updated: 1, rows_failed: 0 });
    expect((await rowsOf(tableId)).map((row: any) => [row.email, row.full_name, row.amount])).toEqual([
      ['ada@example.com', 'Ada', 5],
      ['bob@example.com', 'Bob', 2],
      ['cy@example.com', null, 3],
    ]);
    const ndjson = '{"email":"dee@example.com","tags":["c"]}\n\n{"email":"eve@example.com","active":true}\n';
    const uploadId = await uploadImportFile(org.api, tableId, ndjson, 'rows.ndjson');
    const answer = await org.api.post(`/tables/${tableId}/imports`, { upload_id: uploadId, format: 'ndjson' });
    const done = await importEnded(org.api, tableId, answer.body.data.id);
    expect(done).toMatchObject({ status: 'completed', rows_created: 2 });
    expect((await rowsOf(tableId)).slice(3).map((row: any) => [row.email, row.tags, row.active])).toEqual([
      ['dee@example.com', ['c'], null],
      ['eve@example.com', null, true],
    ]);
  });

  it('with abort writes nothing and reports the problems by line; with skip writes the good lines', async () => {
    const tableId = await table();
    const csv = 'email,amount,active,joined\nok1@example.com,1,true,2024-01-01\nnot-an-email,2,,\nok2@example.com,many,,\nok3@example.com,3,maybe,2024-02-30\nok1@example.com,4,,\n';
    const { result: aborted } = await imported(tableId, csv);
    expect(aborted).toMatchObject({ status: 'failed', rows_done: 5, rows_created: 0, rows_failed: 3 });
    expect(aborted.errors.map((error: any) => [error.line, error.field, error.code])).toEqual([
      [3, 'email', 'VALIDATION_ERROR'],
      [4, 'amount', 'VALIDATION_ERROR'],
      [5, 'active', 'VALIDATION_ERROR'],
    ]);
    expect(await rowsOf(tableId)).toEqual([]);
    const { result: skipped } = await imported(tableId, csv, { on_error: 'skip' });
    expect(skipped).toMatchObject({ status: 'completed', rows_done: 5, rows_created: 1, rows_failed: 4 });
    expect(skipped.errors.map((error: any) => [error.line, error.code])).toEqual([
      [3, 'VALIDATION_ERROR'],
      [4, 'VALIDATION_ERROR'],
      [5, 'VALIDATION_ERROR'],
      [6, 'CONFLICT'],
    ]);
    expect((await rowsOf(tableId)).map((row: any) => row.email)).toEqual(['ok1@example.com']);
  });

  it('reports a line with too many cells, an unterminated quote and invalid UTF-8 by line, writing nothing', async () => {
    const tableId = await table();
    const tooMany = await imported(tableId, 'email,amount\na@example.com,1\nb@example.com,2,3\n');
    expect(tooMany.result).toMatchObject({ status: 'failed', rows_created: 0 });
    expect(tooMany.result.errors[0]).toMatchObject({ line: 3 });
    const unterminated = await imported(tableId, 'email,full_name\na@example.com,"open\nb@example.com,x\n');
    expect(unterminated.result).toMatchObject({ status: 'failed', rows_created: 0 });
    expect(unterminated.result.errors[0].message).toMatch(/quote/i);
    const invalid = Buffer.concat([Buffer.from('email,full_name\na@example.com,ok\nb@example.com,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]);
    const broken = await imported(tableId, invalid);
    expect(broken.result).toMatchObject({ status: 'failed', rows_created: 0 });
    expect(broken.result.errors[0]).toMatchObject({ line: 3, code: 'BAD_REQUEST' });
    expect(broken.result.errors[0].message).toMatch(/UTF-8/);
    expect(await rowsOf(tableId)).toEqual([]);
  });

  it('refuses at once a header with unknown or repeated columns, a file that is not CSV, a foreign or attachment upload, and a file over IMPORT_MAX_BYTES', async () => {
    const tableId = await table();
    const cases: Array<[string | Buffer, Record<string, unknown>, string]> = [
      ['email,nickname\na@example.com,x\n', {}, 'columns'],
      ['email,Email\na@example.com,b@example.com\n', {}, 'columns'],
      ['email,amount\n', { columns: { amount: 'nope' } }, 'columns'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]), {}, 'upload_id'],
      ['', {}, 'upload_id'],
      ['email\n', { mode: 'upsert', upsert_on: 'amount' }, 'upsert_on'],
      ['email\n', { upsert_on: 'email' }, 'upsert_on'],
    ];
    for (const [content, options, field] of cases) {
      const { answer } = await startImport(tableId, content, options);
      expect([answer.status, answer.body.error?.code, answer.body.error?.details?.field]).toEqual([400, 'VALIDATION_ERROR', field]);
    }
    // `columns` maps a column to a slug or skips it.
    const mapped = await imported(tableId, 'E-mail address,nickname\na@example.com,x\n', { columns: { 'E-mail address': 'email', nickname: null } });
    expect(mapped.result).toMatchObject({ status: 'completed', rows_created: 1 });

    const fileField = await org.api.patch(`/tables/${tableId}`, { fields: [{ name: 'Doc', field_type: 'attachment' }] });
    expect(fileField.status).toBe(200);
    const attachmentUpload = await org.api.post(`/tables/${tableId}/uploads`, { filename: 'a.csv', mime_type: 'text/csv', size: 10 });
    const notForImport = await org.api.post(`/tables/${tableId}/imports`, { upload_id: attachmentUpload.body.data.upload_id, format: 'csv' });
    expect([notForImport.status, notForImport.body.error.details.field]).toEqual([400, 'upload_id']);
    const other = await newOrg();
    const otherTable = (await createTable(other.api, FIELDS)).id;
    const foreign = await uploadImportFile(other.api, otherTable, 'email\nz@example.com\n');
    const refused = await org.api.post(`/tables/${tableId}/imports`, { upload_id: foreign, format: 'csv' });
    expect([refused.status, refused.body.error.details.field]).toEqual([400, 'upload_id']);

    const tooLarge = await org.api.post(`/tables/${tableId}/uploads`, { filename: 'big.csv', mime_type: 'text/csv', size: TEST_IMPORT_MAX_BYTES + 1, purpose: 'import' });
    expect([tooLarge.status, tooLarge.body.error.details.field]).toEqual([400, 'size']);
    const fits = await org.api.post(`/tables/${tableId}/uploads`, { filename: 'big.csv', mime_type: 'text/csv', size: TEST_IMPORT_MAX_BYTES, purpose: 'import' });
    expect(fits.status).toBe(201);
    // An import's file is not an attachment.
    const importFile = await uploadImportFile(org.api, tableId, 'email\n');
    const attach = await org.api.post(`/tables/${tableId}/rows`, { data: { email: 'q@example.com', doc: [{ upload_id: importFile }] } });
    expect([attach.status, attach.body.error.details.field]).toEqual([400, 'data.doc[0]']);
  });

  it('runs one import of a table at a time, and refuses a change of the table while it runs', async () => {
    const tableId = await table();
    const lines = Array.from({ length: 20_000 }, (_, i) => `u${i}@example.com,${i}`).join('\n');
    const first = await startImport(tableId, `email,amount\n${lines}\n`);
    expect(first.answer.status).toBe(202);
    const second = await startImport(tableId, 'email\nx@example.com\n');
    expect([second.answer.status, second.answer.body.error.code]).toEqual([400, 'CONFLICT']);
    const change = await org.api.patch(`/tables/${tableId}`, { fields: [{ name: 'Later', field_type: 'text' }] });
    expect([change.status, change.body.error.code]).toEqual([400, 'CONFLICT']);
    const removal = await org.api.delete(`/tables/${tableId}`);
    expect([removal.status, removal.body.error.code]).toEqual([400, 'CONFLICT']);
    const seen = new Set<number>();
    let result: any;
    do {
      result = (await org.api.get(`/tables/${tableId}/imports/${first.answer.body.data.id}`)).body.data;
      seen.add(result.rows_done);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (result.status === 'queued' || result.status === 'running');
    expect(result).toMatchObject({ status: 'completed', rows_created: 20_000 });
    expect((await org.api.get(`/tables/${tableId}`)).body.data.row_count).toBe(20_000);
    expect((await org.api.patch(`/tables/${tableId}`, { fields: [{ name: 'Later', field_type: 'text' }] })).status).toBe(200);
  });

  it('imports a row of 512 KiB, refuses one a byte larger by its line, and exports the large row back whole', async () => {
    const created = await createTable(
      org.api,
      Array.from({ length: 6 }, (_, i) => ({ name: `Part ${i + 1}`, field_type: 'long_text' })),
    );
    const slugs: string[] = created.detail.fields.map((field: { slug: string }) => field.slug);
    // Six long texts (at most 100,000 characters each) whose data is exactly `bytes` of JSON.
    const rowOfSize = (bytes: number, fill: string) => {
      let left = bytes - JSON.stringify(Object.fromEntries(slugs.map((slug) => [slug, '']))).length;
      return Object.fromEntries(slugs.map((slug) => {
        const length = Math.min(left, 100_000);
        left -= length;
        return [slug, fill.repeat(length)];
      }));
    };
    const largest = rowOfSize(ROW_DATA_MAX_BYTES, 'x');
    const over = rowOfSize(ROW_DATA_MAX_BYTES + 1, 'y');
    expect([JSON.stringify(largest).length, JSON.stringify(over).length]).toEqual([ROW_DATA_MAX_BYTES, ROW_DATA_MAX_BYTES + 1]);
    const line = (row: Record<string, string>) => slugs.map((slug) => row[slug]).join(',');
    const { result } = await imported(created.id, `${slugs.join(',')}\n${line(largest)}\n${line(over)}\n`, { on_error: 'skip' });
    expect(result).toMatchObject({ status: 'completed', rows_created: 1, rows_failed: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ line: 3, field: 'data', code: 'VALIDATION_ERROR' })]);
    expect((await org.api.get(`/tables/${created.id}/rows`)).body.data.map((row: any) => row.data)).toEqual([largest]);

    const started = await org.api.post(`/tables/${created.id}/exports`, { format: 'ndjson' });
    const done = await exportEnded(org.api, created.id, started.body.data.id);
    expect(JSON.parse(await (await fetch(done.download_url)).text())).toEqual(largest);
  });

  async function expectGone(key: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (await storage.exists(key)) {
      if (Date.now() > deadline) throw new Error(`${key} is still in storage`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
});
