import { importEnded, readOrgEvents, uploadImportFile } from '@platform/testing';
import { IsolatedStack, startIsolatedStack } from '@platform/testing/reliability';

const ROWS = 150_000;

describe('tables-jobs killed with SIGKILL mid-import', () => {
  let stack: IsolatedStack;

  beforeAll(async () => {
    stack = await startIsolatedStack('import-crash');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('takes the import up again, writes every row once and ends it exactly once', async () => {
    const org = await stack.createOrg();
    const table = await org.api.post('/tables', { name: 'Crash import', fields: [{ name: 'N', field_type: 'number' }, { name: 'Label', field_type: 'text' }] });
    const tableId = table.body.data.id;
    const csv = `n,label\n${Array.from({ length: ROWS }, (_, i) => `${i},row ${i}`).join('\n')}\n`;
    const uploadId = await uploadImportFile(org.api, tableId, csv);
    const started = await org.api.post(`/tables/${tableId}/imports`, { upload_id: uploadId, format: 'csv' });
    expect(started.status).toBe(202);
    const importId = started.body.data.id;

    // Killed once rows are being written, well before the end.
    let seen: any;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = (await org.api.get(`/tables/${tableId}/imports/${importId}`)).body.data;
    } while (seen.status !== 'completed' && seen.rows_done < 10_000);
    expect(seen.status).toBe('running');
    await stack.kill('tables-jobs');
    await stack.restart('tables-jobs');

    const result = await importEnded(org.api, tableId, importId, 240_000);
    expect(result).toMatchObject({ status: 'completed', rows_done: ROWS, rows_created: ROWS, rows_failed: 0 });
    expect((await org.api.get(`/tables/${tableId}`)).body.data.row_count).toBe(ROWS);
    // Every value once: the count of rows, and of rows at the two ends, read from the rows themselves.
    const all = await org.api.get(`/tables/${tableId}/rows?limit=1&filter=${encodeURIComponent(JSON.stringify({ n: { gte: 0 } }))}`);
    expect(all.body.pagination.total).toBe(ROWS);
    for (const n of [0, ROWS - 1]) {
      const one = await org.api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent(JSON.stringify({ n }))}`);
      expect(one.body.pagination.total).toBe(1);
    }
    const events = await readOrgEvents(org.orgId, { count: 3, timeoutMs: 10_000, natsUrl: stack.nats.url });
    expect(events.map((e) => e.event.event)).toEqual(['table.created', 'table.imported']);
  }, 420_000);
});
