import 'reflect-metadata';
import { eventually, testDatabaseUrl, download, objectKey, storageClient, uploadFile } from '@platform/testing';
import { Client } from 'pg';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

const FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Files', field_type: 'attachment' },
];

/** Storage is cleaned up in the background, a second or so after the change commits. */
async function expectGone(url: string): Promise<void> {
  await eventually(async () => expect((await download(url)).status).toBe(404), { timeoutMs: 20_000, intervalMs: 250 });
}

async function expectThere(url: string, bytes: Buffer): Promise<void> {
  const fetched = await download(url);
  expect(fetched.status).toBe(200);
  expect(fetched.bytes.equals(bytes)).toBe(true);
}

describe('files leave storage after the change that drops them commits', () => {
  let org: OrgClient;
  let tableId: string;
  const rows = () => `/tables/${tableId}/rows`;

  beforeAll(async () => {
    org = await newOrg();
    tableId = (await createTable(org.api, FIELDS)).id;
  });

  async function rowWithFiles(count = 1) {
    const uploads = await Promise.all(Array.from({ length: count }, () => uploadFile(org.api, tableId)));
    const created = await org.api.post(rows(), { data: { files: uploads.map((upload) => ({ upload_id: upload.uploadId })) } });
    expect(created.status).toBe(201);
    return { rowId: created.body.data.id as string, files: created.body.data.data.files as Array<{ id: string; url: string }>, uploads };
  }

  it('a replaced file goes, a kept one stays', async () => {
    const { rowId, files, uploads } = await rowWithFiles(2);
    const replacement = await uploadFile(org.api, tableId);
    const patched = await org.api.patch(`${rows()}/${rowId}`, { data: { files: [{ id: files[1].id }, { upload_id: replacement.uploadId }] } });
    expect(patched.status).toBe(200);
    await expectGone(files[0].url);
    await expectThere(files[1].url, uploads[1].bytes);
    await expectThere(patched.body.data.data.files[1].url, replacement.bytes);
  });

  it('a cleared value, and a value replaced by links only', async () => {
    const cleared = await rowWithFiles();
    expect((await org.api.patch(`${rows()}/${cleared.rowId}`, { data: { files: null } })).status).toBe(200);
    const linked = await rowWithFiles();
    const link = { url: 'https://cdn.example.com/x.png', filename: 'x.png' };
    expect((await org.api.patch(`${rows()}/${linked.rowId}`, { data: { files: [link] } })).body.data.data.files).toEqual([link]);
    await expectGone(cleared.files[0].url);
    await expectGone(linked.files[0].url);
  });

  it('a deleted row', async () => {
    const { rowId, files } = await rowWithFiles(2);
    expect((await org.api.delete(`${rows()}/${rowId}`)).status).toBe(200);
    await expectGone(files[0].url);
    await expectGone(files[1].url);
  });

  it('batches attach files per row, name the item that reuses an upload, and drop files like single writes', async () => {
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => uploadFile(org.api, tableId)));
    const created = await org.api.post(`${rows()}/batch`, { rows: [{ data: { files: [{ upload_id: a.uploadId }] } }, { data: { files: [{ upload_id: b.uploadId }] } }] });
    expect(created.status).toBe(201);
    const [rowA, rowB] = created.body.data;
    await expectThere(rowA.data.files[0].url, a.bytes);
    const reuse = await org.api.post(`${rows()}/batch`, { rows: [{ data: { title: 'fine' } }, { data: { files: [{ upload_id: a.uploadId }] } }] });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.details.field).toBe('rows[1].data.files[0]');
    const updated = await org.api.patch(`${rows()}/batch`, { rows: [{ id: rowA.id, data: { files: [{ upload_id: c.uploadId }] } }] });
    expect(updated.status).toBe(200);
    await expectGone(rowA.data.files[0].url);
    await expectThere(updated.body.data[0].data.files[0].url, c.bytes);
    expect((await org.api.post(`${rows()}/batch-delete`, { ids: [rowA.id, rowB.id] })).status).toBe(200);
    await expectGone(rowB.data.files[0].url);
    await expectGone(updated.body.data[0].data.files[0].url);
  });

  it('a removed field, and a deleted table with its uploads never attached', async () => {
    const table = await createTable(org.api, [...FIELDS, { name: 'Kept', field_type: 'attachment' }]);
    const upload = await uploadFile(org.api, table.id);
    const keptUpload = await uploadFile(org.api, table.id);
    const created = await org.api.post(`/tables/${table.id}/rows`, { data: { files: [{ upload_id: upload.uploadId }], kept: [{ upload_id: keptUpload.uploadId }] } });
    const [removedFile] = created.body.data.data.files;
    const [keptFile] = created.body.data.data.kept;
    const filesField = table.detail.fields.find((field: { slug: string }) => field.slug === 'files');
    expect((await org.api.patch(`/tables/${table.id}`, { remove_fields: [filesField.id] })).status).toBe(200);
    await expectGone(removedFile.url);
    await expectThere(keptFile.url, keptUpload.bytes);

    const storage = storageClient();
    try {
      const unattached = await uploadFile(org.api, table.id);
      const unattachedKey = objectKey(org.orgId, table.id, unattached.uploadId);
      expect(await storage.exists(unattachedKey)).toBe(true);
      expect((await org.api.delete(`/tables/${table.id}`)).status).toBe(200);
      await expectGone(keptFile.url);
      await eventually(async () => expect(await storage.exists(unattachedKey)).toBe(false), { timeoutMs: 20_000 });
    } finally {
      storage.close();
    }
  });

  it('an upload nobody attached within 24 hours', async () => {
    const storage = storageClient();
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const abandoned = await uploadFile(org.api, tableId);
      const recent = await uploadFile(org.api, tableId);
      const key = objectKey(org.orgId, tableId, abandoned.uploadId);
      // The clock moves instead of the test waiting a day.
      await db.query(`UPDATE tables.uploads SET created_at = now() - interval '24 hours 1 minute' WHERE id = $1`, [abandoned.uploadId]);
      await eventually(async () => expect(await storage.exists(key)).toBe(false), { timeoutMs: 20_000 });
      const refused = await org.api.post(rows(), { data: { files: [{ upload_id: abandoned.uploadId }] } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.field).toBe('data.files[0]');
      expect(await storage.exists(objectKey(org.orgId, tableId, recent.uploadId))).toBe(true);
      expect((await org.api.post(rows(), { data: { files: [{ upload_id: recent.uploadId }] } })).status).toBe(201);
    } finally {
      await db.end();
      storage.close();
    }
  });
});
