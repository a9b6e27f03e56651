import { eventually, download, objectKey, storageClient, uploadFile } from '@platform/testing';
import { IsolatedStack, startIsolatedStack } from '@platform/testing/reliability';
import { Client } from 'pg';

const FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Files', field_type: 'attachment' },
];

describe('object storage down while rows change', () => {
  let stack: IsolatedStack;

  beforeAll(async () => {
    stack = await startIsolatedStack('storage');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('the changes commit, answers keep their links, and the cleanup catches up once storage is back', async () => {
    const { api, orgId } = await stack.createOrg();
    const table = await api.post('/tables', { name: 'Outage', fields: FIELDS });
    expect(table.status).toBe(201);
    const tableId = table.body.data.id as string;
    const rows = `/tables/${tableId}/rows`;
    const made = [];
    for (let i = 0; i < 3; i += 1) {
      const upload = await uploadFile(api, tableId);
      const created = await api.post(rows, { data: { title: `row ${i}`, files: [{ upload_id: upload.uploadId }] } });
      expect(created.status).toBe(201);
      made.push({ rowId: created.body.data.id as string, fileId: upload.uploadId, url: created.body.data.data.files[0].url as string });
    }
    const waiting = await uploadFile(api, tableId);
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    const storage = storageClient(stack.env);
    try {
      await stack.s3.stop();

      expect((await api.delete(`${rows}/${made[0].rowId}`)).status).toBe(200);
      expect((await api.patch(`${rows}/${made[1].rowId}`, { data: { files: null } })).status).toBe(200);
      const linked = await api.patch(`${rows}/${made[2].rowId}`, { data: { files: [{ url: 'https://cdn.example.com/a', filename: 'a' }] } });
      expect(linked.status).toBe(200);
      expect((await api.get(`${rows}/${made[1].rowId}`)).body.data.data.files).toBeNull();
      // A new file cannot be checked while storage is away: the write fails whole, as a failure of ours.
      const attach = await api.patch(`${rows}/${made[1].rowId}`, { data: { files: [{ upload_id: waiting.uploadId }] } });
      expect(attach.status).toBe(500);
      expect(attach.body.error.code).toBe('INTERNAL_ERROR');
      expect((await api.get(`${rows}/${made[1].rowId}`)).body.data.data.files).toBeNull();
      expect((await stack.readiness('tables')).ready).toBe(true);

      // The cleanup tried, failed, and keeps the deletions queued.
      await eventually(
        async () => {
          const { rows: queued } = await db.query<{ attempts: number }>('SELECT attempts FROM tables.object_deletions');
          expect(queued).toHaveLength(3);
          expect(Math.min(...queued.map((row) => row.attempts))).toBeGreaterThanOrEqual(1);
        },
        { timeoutMs: 20_000 },
      );

      await stack.s3.start();
      for (const file of made) {
        await eventually(async () => expect(await storage.exists(objectKey(orgId, tableId, file.fileId))).toBe(false), { timeoutMs: 60_000, intervalMs: 500 });
        expect((await download(file.url)).status).toBe(404);
      }
      // The queue row goes a moment after the object: the cleanup deletes, then records it.
      await eventually(async () => expect((await db.query('SELECT 1 FROM tables.object_deletions')).rowCount).toBe(0), { timeoutMs: 20_000 });
      const attached = await api.patch(`${rows}/${made[1].rowId}`, { data: { files: [{ upload_id: waiting.uploadId }] } });
      expect(attached.status).toBe(200);
      expect((await download(attached.body.data.data.files[0].url)).bytes.equals(waiting.bytes)).toBe(true);
    } finally {
      storage.close();
      await db.end();
    }
  }, 300_000);
});
