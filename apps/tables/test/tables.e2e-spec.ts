import 'reflect-metadata';
import { createTable, ISO_MS, newOrg, OrgClient, uniqueName, UUID } from './tables-fixtures';

describe('tables', () => {
  let org: OrgClient;
  let other: OrgClient;

  beforeAll(async () => {
    [org, other] = await Promise.all([newOrg(), newOrg()]);
  });

  it('creates a table with fields and slugs, and answers its detail', async () => {
    const name = `Crème Brûlée ${uniqueName('x')}`;
    const res = await org.api.post('/tables', {
      name,
      description: 'Desserts',
      icon: 'cake',
      fields: [
        { name: 'Due Date', field_type: 'date', is_required: true },
        { name: 'Status', field_type: 'select', options: { values: ['open', 'closed'] } },
        { name: 'Price', field_type: 'currency' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const table = res.body.data;
    expect(table.id).toMatch(UUID);
    expect(table.name).toBe(name);
    expect(table.slug).toMatch(/^creme_brulee_x_[a-z0-9_]+$/);
    expect(table.fields.map((f: any) => [f.slug, f.field_type, f.is_required])).toEqual([
      ['due_date', 'date', true],
      ['status', 'select', false],
      ['price', 'currency', false],
    ]);
    expect(table.fields[2].options).toEqual({ currency: 'USD', precision: 2 });
    table.fields.forEach((f: any) => expect(f.id).toMatch(UUID));

    const detail = await org.api.get(`/tables/${table.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: table.id, name, description: 'Desserts', icon: 'cake', row_count: 0 });
    expect(detail.body.data.created_at).toMatch(ISO_MS);
    expect(detail.body.data.updated_at).toMatch(ISO_MS);
    expect(detail.body.data.fields).toHaveLength(3);
  });

  it('answers null for an unset description and icon', async () => {
    const { detail } = await createTable(org.api, []);
    expect(detail.description).toBeNull();
    expect(detail.icon).toBeNull();
  });

  it('refuses a duplicate table slug in the organization with CONFLICT, but not in another organization', async () => {
    const name = uniqueName('Dup');
    await createTable(org.api, [], name);
    const again = await org.api.post('/tables', { name: name.toUpperCase(), fields: [] });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('CONFLICT');
    const elsewhere = await other.api.post('/tables', { name, fields: [] });
    expect(elsewhere.status).toBe(201);
  });

  it.each([
    [{ fields: [] }, 'name'],
    [{ name: 'x' }, 'fields'],
    [{ name: uniqueName(), fields: [{ name: 'A', field_type: 'nope' }] }, 'fields[0].field_type'],
    [{ name: uniqueName(), fields: [{ field_type: 'text' }] }, 'fields[0].name'],
    [{ name: uniqueName(), fields: [{ name: 'ID', field_type: 'text' }] }, 'fields[0].name'],
    [{ name: uniqueName(), fields: [{ name: 'Created at', field_type: 'text' }] }, 'fields[0].name'],
    [{ name: uniqueName(), fields: [{ name: 'A b', field_type: 'text' }, { name: 'a  B', field_type: 'text' }] }, 'fields[1].name'],
    [{ name: uniqueName(), fields: [{ name: 'S', field_type: 'select' }] }, 'fields[0].options.values'],
    [{ name: uniqueName(), fields: [{ name: 'S', field_type: 'select', options: { values: ['a', 'a'] } }] }, 'fields[0].options.values[1]'],
    [{ name: uniqueName(), fields: [{ name: 'N', field_type: 'number', options: { precision: 11 } }] }, 'fields[0].options.precision'],
    [{ name: uniqueName(), fields: [{ name: 'C', field_type: 'currency', options: { currency: 'XYZ' } }] }, 'fields[0].options.currency'],
    [{ name: uniqueName(), fields: [{ name: 'P', field_type: 'phone', options: { default_country: 'ZZ' } }] }, 'fields[0].options.default_country'],
    [{ name: uniqueName(), fields: [{ name: 'T', field_type: 'text', options: { max: 3 } }] }, 'fields[0].options.max'],
    [{ name: uniqueName(), fields: [{ name: 'T', field_type: 'text', is_required: 'yes' }] }, 'fields[0].is_required'],
    [{ name: uniqueName(), fields: [], color: 'red' }, 'color'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await org.api.post('/tables', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.field).toBe(field);
  });

  it('gives a name in any script a slug from its id: t_ and f_ and 8 hex digits', async () => {
    const created = await org.api.post('/tables', { name: '名前', fields: [{ name: '🚀', field_type: 'text' }, { name: '!!!', field_type: 'number' }] });
    expect(created.status).toBe(201);
    const table = created.body.data;
    const hex = (id: string) => id.replace(/-/g, '').slice(0, 8);
    expect(table.slug).toBe(`t_${hex(table.id)}`);
    expect(table.fields.map((field: any) => field.slug)).toEqual(table.fields.map((field: any) => `f_${hex(field.id)}`));
    const row = await org.api.post(`/tables/${table.id}/rows`, { data: { [table.fields[0].slug]: 'launch', [table.fields[1].slug]: 3 } });
    expect(row.status).toBe(201);
    const renamed = await org.api.patch(`/tables/${table.id}`, { name: 'Überblick' });
    expect(renamed.body.data.slug).toBe('uberblick');
    const back = await org.api.patch(`/tables/${table.id}`, { name: '🚀🚀' });
    expect(back.status).toBe(200);
    expect(back.body.data.slug).toBe(`t_${hex(table.id)}`);
  });

  it('lists tables with pagination and row counts', async () => {
    const fresh = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await createTable(fresh.api, [{ name: 'T', field_type: 'text' }])).id);
    await fresh.api.post(`/tables/${ids[0]}/rows`, { data: { t: 'a' } });
    await fresh.api.post(`/tables/${ids[0]}/rows`, { data: { t: 'b' } });
    const page1 = await fresh.api.get('/tables?page=1&limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.body.data.map((t: any) => t.id)).toEqual(ids.slice(0, 2));
    expect(page1.body.data[0].row_count).toBe(2);
    expect(Object.keys(page1.body.data[0]).sort()).toEqual(['created_at', 'description', 'icon', 'id', 'name', 'row_count', 'slug', 'updated_at']);
    const page2 = await fresh.api.get('/tables?page=2&limit=2');
    expect(page2.body.data.map((t: any) => t.id)).toEqual(ids.slice(2));
    const defaults = await fresh.api.get('/tables');
    expect(defaults.body.pagination).toEqual({ page: 1, limit: 50, total: 3 });
  });

  it.each(['page=0', 'limit=0', 'limit=101', 'page=abc', 'limit=1.5', 'page=-1'])('refuses %s', async (query) => {
    const res = await org.api.get(`/tables?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.field).toBe(query.split('=')[0]);
  });

  describe('PATCH', () => {
    it('renames (the slug follows), changes description and icon, and adds, updates and removes fields', async () => {
      const { id, detail } = await createTable(org.api, [
        { name: 'Title', field_type: 'text' },
        { name: 'Kind', field_type: 'select', options: { values: ['a'] } },
        { name: 'Old', field_type: 'number' },
      ]);
      const [title, kind, old] = detail.fields;
      await org.api.post(`/tables/${id}/rows`, { data: { title: 'row', kind: 'a', old: 5 } });
      const newName = uniqueName('Renamed');
      const res = await org.api.patch(`/tables/${id}`, {
        name: newName,
        description: 'now described',
        icon: 'star',
        fields: [
          { id: title.id, name: 'Headline', is_required: true },
          { id: kind.id, options: { values: ['a', 'b'] } },
          { name: 'Added', field_type: 'checkbox' },
        ],
        remove_fields: [old.id],
      });
      expect(res.status).toBe(200);
      const table = res.body.data;
      expect(table.name).toBe(newName);
      expect(table.slug).toMatch(/^renamed_/);
      expect(table.description).toBe('now described');
      expect(table.icon).toBe('star');
      expect(table.row_count).toBe(1);
      expect(table.fields.map((f: any) => [f.name, f.slug, f.is_required])).toEqual([
        ['Headline', 'title', true],
        ['Kind', 'kind', false],
        ['Added', 'added', false],
      ]);
      expect(table.fields[1].options).toEqual({ values: ['a', 'b'] });

      const rows = await org.api.get(`/tables/${id}/rows`);
      expect(rows.body.data[0].data).toEqual({ title: 'row', kind: 'a', added: null });
      const write = await org.api.post(`/tables/${id}/rows`, { data: { title: 'two', kind: 'b', added: true } });
      expect(write.status).toBe(201);
      const stale = await org.api.post(`/tables/${id}/rows`, { data: { title: 'three', old: 1 } });
      expect(stale.body.error.details.field).toBe('data.old');
    });

    it('clears description and icon with null', async () => {
      const created = await org.api.post('/tables', { name: uniqueName(), description: 'd', icon: 'i', fields: [] });
      const res = await org.api.patch(`/tables/${created.body.data.id}`, { description: null, icon: null });
      expect(res.body.data.description).toBeNull();
      expect(res.body.data.icon).toBeNull();
    });

    it('refuses a required field on a table with rows, a type change, unknown field ids and duplicate slugs', async () => {
      const { id, detail } = await createTable(org.api, [{ name: 'A', field_type: 'text' }, { name: 'B', field_type: 'number' }]);
      await org.api.post(`/tables/${id}/rows`, { data: { a: 'x' } });
      const cases: Array<[unknown, string]> = [
        [{ fields: [{ name: 'Must', field_type: 'text', is_required: true }] }, 'fields[0].is_required'],
        [{ fields: [{ id: detail.fields[0].id, field_type: 'number' }] }, 'fields[0].field_type'],
        [{ fields: [{ id: '00000000-0000-4000-8000-000000000000', name: 'X' }] }, 'fields[0].id'],
        [{ remove_fields: ['00000000-0000-4000-8000-000000000000'] }, 'remove_fields[0]'],
        [{ remove_fields: ['nope'] }, 'remove_fields[0]'],
        [{ fields: [{ name: 'a', field_type: 'text' }] }, 'fields[0].name'],
        [{ fields: [{ name: 'New' }] }, 'fields[0].field_type'],
        [{ fields: [{ id: detail.fields[1].id, is_required: true }] }, 'fields[0].is_required'],
        [{ name: '' }, 'name'],
      ];
      for (const [body, field] of cases) {
        const res = await org.api.patch(`/tables/${id}`, body);
        expect([res.status, res.body.error?.code, res.body.error?.details?.field]).toEqual([400, 'VALIDATION_ERROR', field]);
      }
      const after = await org.api.get(`/tables/${id}`);
      expect(after.body.data.fields).toEqual(detail.fields);
    });

    it('renaming onto another table slug is a CONFLICT', async () => {
      const first = await createTable(org.api, []);
      const second = await createTable(org.api, []);
      const res = await org.api.patch(`/tables/${second.id}`, { name: first.detail.name });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('CONFLICT');
    });

    it('a field removed frees its slug for a new field, which starts empty', async () => {
      const { id, detail } = await createTable(org.api, [{ name: 'V', field_type: 'text' }]);
      await org.api.post(`/tables/${id}/rows`, { data: { v: 'text' } });
      const res = await org.api.patch(`/tables/${id}`, { remove_fields: [detail.fields[0].id], fields: [{ name: 'V', field_type: 'number' }] });
      expect(res.status).toBe(200);
      const rows = await org.api.get(`/tables/${id}/rows`);
      expect(rows.body.data[0].data).toEqual({ v: null });
    });
  });

  it('deletes a table with its rows', async () => {
    const { id } = await createTable(org.api, [{ name: 'T', field_type: 'text' }]);
    const row = await org.api.post(`/tables/${id}/rows`, { data: { t: 'x' } });
    const res = await org.api.delete(`/tables/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await org.api.get(`/tables/${id}`)).status).toBe(404);
    expect((await org.api.get(`/tables/${id}/rows/${row.body.data.id}`)).status).toBe(404);
    expect((await org.api.delete(`/tables/${id}`)).status).toBe(404);
  });

  it('answers 404 for a non-UUID or unknown id', async () => {
    for (const path of ['/tables/nope', '/tables/00000000-0000-4000-8000-000000000000', '/tables/1;drop/rows']) {
      const res = await org.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it("answers 404 for another organization's table and changes nothing", async () => {
    const { id, detail } = await createTable(org.api, [{ name: 'T', field_type: 'text' }]);
    const row = (await org.api.post(`/tables/${id}/rows`, { data: { t: 'mine' } })).body.data;
    const attempts = [
      other.api.get(`/tables/${id}`),
      other.api.patch(`/tables/${id}`, { name: 'stolen' }),
      other.api.delete(`/tables/${id}`),
      other.api.get(`/tables/${id}/rows`),
      other.api.get(`/tables/${id}/rows/${row.id}`),
      other.api.post(`/tables/${id}/rows`, { data: { t: 'theirs' } }),
      other.api.patch(`/tables/${id}/rows/${row.id}`, { data: { t: 'theirs' } }),
      other.api.delete(`/tables/${id}/rows/${row.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const after = await org.api.get(`/tables/${id}`);
    expect(after.body.data).toEqual({ ...detail, row_count: 1, updated_at: after.body.data.updated_at });
    expect(after.body.data.updated_at).toBe(detail.updated_at);
    const rows = await org.api.get(`/tables/${id}/rows`);
    expect(rows.body.data.map((r: any) => r.data)).toEqual([{ t: 'mine' }]);
    const theirs = await other.api.get('/tables');
    expect(theirs.body.data.map((t: any) => t.id)).not.toContain(id);
  });

  it('needs the tables scopes', async () => {
    const reader = await newOrg('tables:read');
    expect((await reader.api.get('/tables')).status).toBe(200);
    const write = await reader.api.post('/tables', { name: uniqueName(), fields: [] });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    const none = await newOrg('webhooks:read');
    expect((await none.api.get('/tables')).status).toBe(403);
  });
});
