import 'reflect-metadata';
import { createTable, ISO_MS, newOrg, OrgClient, UUID } from './tables-fixtures';

const ALL_TYPES = [
  { name: 'Title', field_type: 'text', is_required: true },
  { name: 'Notes', field_type: 'long_text' },
  { name: 'Score', field_type: 'number', options: { precision: 2 } },
  { name: 'Price', field_type: 'currency', options: { currency: 'EUR' } },
  { name: 'Day', field_type: 'date' },
  { name: 'At', field_type: 'datetime' },
  { name: 'Done', field_type: 'checkbox' },
  { name: 'Status', field_type: 'select', options: { values: ['open', 'closed'] } },
  { name: 'Tags', field_type: 'multi_select', options: { values: ['red', 'green', 'blue'] } },
  { name: 'Mail', field_type: 'email' },
  { name: 'Site', field_type: 'url' },
  { name: 'Phone', field_type: 'phone', options: { default_country: 'US' } },
  { name: 'Files', field_type: 'attachment' },
];

const EMPTY = { notes: null, score: null, price: null, day: null, at: null, done: null, status: null, tags: null, mail: null, site: null, phone: null, files: null };

describe('rows', () => {
  let org: OrgClient;
  let tableId: string;

  beforeAll(async () => {
    org = await newOrg();
    tableId = (await createTable(org.api, ALL_TYPES)).id;
  });

  const rows = () => `/tables/${tableId}/rows`;

  it('creates, reads, merges and deletes a row of every type, normalizing values', async () => {
    const created = await org.api.post(rows(), {
      data: {
        title: 'First',
        notes: 'line 1\nline 2',
        score: 1.005,
        price: 10.125,
        day: '2024-02-29',
        at: '2024-05-01T12:30:00+02:00',
        done: true,
        status: 'open',
        tags: ['red', 'blue'],
        mail: 'ada@example.com',
        site: 'https://example.com/x?y=1',
        phone: '(202) 555-0143',
        files: [{ url: 'https://cdn.example.com/a.png', filename: 'a.png', size: 12, mime_type: 'image/png' }],
      },
    });
    expect(created.status).toBe(201);
    const row = created.body.data;
    expect(row.id).toMatch(UUID);
    expect(row.created_at).toMatch(ISO_MS);
    expect(row.data).toEqual({
      title: 'First',
      notes: 'line 1\nline 2',
      score: 1.01,
      price: 10.13,
      day: '2024-02-29',
      at: '2024-05-01T10:30:00.000Z',
      done: true,
      status: 'open',
      tags: ['red', 'blue'],
      mail: 'ada@example.com',
      site: 'https://example.com/x?y=1',
      phone: '+12025550143',
      files: [{ url: 'https://cdn.example.com/a.png', filename: 'a.png', size: 12, mime_type: 'image/png' }],
    });

    const read = await org.api.get(`${rows()}/${row.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ id: row.id, data: row.data, created_at: row.created_at, updated_at: expect.stringMatching(ISO_MS) });

    const patched = await org.api.patch(`${rows()}/${row.id}`, { data: { score: 2, tags: null, status: 'closed' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.id).toBe(row.id);
    expect(patched.body.data.updated_at).toMatch(ISO_MS);
    expect(patched.body.data.data).toEqual({ ...row.data, score: 2, tags: null, status: 'closed' });
    expect(Date.parse(patched.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(row.created_at));

    const removed = await org.api.delete(`${rows()}/${row.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: expect.any(String) });
    expect((await org.api.get(`${rows()}/${row.id}`)).status).toBe(404);
    expect((await org.api.delete(`${rows()}/${row.id}`)).status).toBe(404);
    expect((await org.api.patch(`${rows()}/${row.id}`, { data: { title: 'x' } })).status).toBe(404);
  });

  it('keeps datetimes of the years 1 to 99 as sent, in storage and in filters', async () => {
    const early = await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'early', at: '0050-06-15T12:00:00+02:00' } });
    expect(early.status).toBe(201);
    expect(early.body.data.data.at).toBe('0050-06-15T10:00:00.000Z');
    expect((await org.api.get(`/tables/${tableId}/rows/${early.body.data.id}`)).body.data.data.at).toBe('0050-06-15T10:00:00.000Z');
    const before100 = await org.api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent(JSON.stringify({ at: { lt: '0100-01-01T00:00:00Z' } }))}`);
    expect(before100.body.data.map((row: any) => row.id)).toEqual([early.body.data.id]);
    await org.api.delete(`/tables/${tableId}/rows/${early.body.data.id}`);
  });

  it('answers every field in data, null when unset', async () => {
    const res = await org.api.post(rows(), { data: { title: 'Sparse' } });
    expect(res.body.data.data).toEqual({ title: 'Sparse', ...EMPTY });
  });

  it.each([
    [{}, 'data.title'],
    [{ title: '' }, 'data.title'],
    [{ title: null }, 'data.title'],
    [{ title: 5 }, 'data.title'],
    [{ title: 'x'.repeat(10_001) }, 'data.title'],
    [{ title: 't', unknown: 1 }, 'data.unknown'],
    [{ title: 't', score: '5' }, 'data.score'],
    [{ title: 't', price: 'ten' }, 'data.price'],
    [{ title: 't', day: '2023-02-29' }, 'data.day'],
    [{ title: 't', day: '2024-04-31' }, 'data.day'],
    [{ title: 't', at: '2024-05-01 12:00' }, 'data.at'],
    [{ title: 't', at: '2024-05-01T12:00:00' }, 'data.at'],
    [{ title: 't', done: 'true' }, 'data.done'],
    [{ title: 't', status: 'pending' }, 'data.status'],
    [{ title: 't', tags: ['red', 'red'] }, 'data.tags'],
    [{ title: 't', tags: ['purple'] }, 'data.tags'],
    [{ title: 't', tags: 'red' }, 'data.tags'],
    [{ title: 't', mail: 'not-an-email' }, 'data.mail'],
    [{ title: 't', site: 'ftp://example.com' }, 'data.site'],
    [{ title: 't', site: '/relative' }, 'data.site'],
    [{ title: 't', phone: '12' }, 'data.phone'],
    [{ title: 't', files: [{ url: 'https://x.example/a' }] }, 'data.files'],
    [{ title: 't', files: [{ url: 'nope', filename: 'a' }] }, 'data.files'],
    [{ title: 't', files: { url: 'https://x.example/a', filename: 'a' } }, 'data.files'],
    [{ title: 't', notes: { deep: { deeper: [1, 2, 3] } } }, 'data.notes'],
  ])('refuses %j naming %s', async (data, field) => {
    const before = (await org.api.get(`/tables/${tableId}`)).body.data.row_count;
    const res = await org.api.post(rows(), { data });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.field).toBe(field);
    expect((await org.api.get(`/tables/${tableId}`)).body.data.row_count).toBe(before);
  });

  it.each([
    [{ data: [] }, 'data'],
    [{}, 'data'],
    [{ data: 'x' }, 'data'],
    [{ data: {}, extra: 1 }, 'extra'],
  ])('refuses the body %j naming %s', async (body, field) => {
    const res = await org.api.post(rows(), body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe(field);
  });

  it('refuses clearing a required field on update, and keeps the row as it was', async () => {
    const row = (await org.api.post(rows(), { data: { title: 'Keep', score: 3 } })).body.data;
    for (const data of [{ title: null }, { title: '' }, { score: 'x' }, { nope: 1 }]) {
      const res = await org.api.patch(`${rows()}/${row.id}`, { data });
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toBe(`data.${Object.keys(data)[0]}`);
    }
    expect((await org.api.get(`${rows()}/${row.id}`)).body.data.data).toEqual(row.data);
  });

  it('keeps row_count exact through creates and deletes, including concurrent ones', async () => {
    const { id } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => org.api.post(`/tables/${id}/rows`, { data: { n: i } })));
    expect(created.every((res) => res.status === 201)).toBe(true);
    await Promise.all(created.slice(0, 15).map((res) => org.api.delete(`/tables/${id}/rows/${res.body.data.id}`)));
    const table = await org.api.get(`/tables/${id}`);
    expect(table.body.data.row_count).toBe(25);
    const list = await org.api.get(`/tables/${id}/rows?limit=1`);
    expect(list.body.pagination.total).toBe(25);
  });

  it('answers 404 for an unknown or malformed row id, and for a row of another table', async () => {
    const { id: otherTable } = await createTable(org.api, [{ name: 'T', field_type: 'text' }]);
    const foreign = (await org.api.post(`/tables/${otherTable}/rows`, { data: { t: 'x' } })).body.data;
    for (const path of [`${rows()}/nope`, `${rows()}/00000000-0000-4000-8000-000000000000`, `${rows()}/${foreign.id}`]) {
      const res = await org.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await org.api.delete(`${rows()}/${foreign.id}`)).status).toBe(404);
    expect((await org.api.get(`/tables/${otherTable}/rows/${foreign.id}`)).status).toBe(200);
  });
});
