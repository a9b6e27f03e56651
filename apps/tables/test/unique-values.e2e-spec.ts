import 'reflect-metadata';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

describe('is_unique fields', () => {
  let org: OrgClient;

  beforeAll(async () => {
    org = await newOrg();
  });

  const rowCount = async (tableId: string) => (await org.api.get(`/tables/${tableId}`)).body.data.row_count;

  it('refuses a duplicate on create, update and in a batch with CONFLICT naming the field where the request holds it', async () => {
    const { id, detail } = await createTable(org.api, [
      { name: 'Email', field_type: 'email', options: { is_unique: true } },
      { name: 'Code', field_type: 'number', options: { is_unique: true } },
      { name: 'Note', field_type: 'text' },
    ]);
    expect(detail.fields.map((f: any) => f.options)).toEqual([{ is_unique: true }, { is_unique: true }, {}]);
    const rows = `/tables/${id}/rows`;
    const first = await org.api.post(rows, { data: { email: 'ada@example.com', code: 1, note: 'same' } });
    expect(first.status).toBe(201);
    // Empty values never collide, nor do equal values of a field that is not unique.
    expect((await org.api.post(rows, { data: { email: null, note: 'same' } })).status).toBe(201);
    expect((await org.api.post(rows, { data: { note: 'same' } })).status).toBe(201);

    const duplicate = await org.api.post(rows, { data: { email: 'ada@example.com' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'data.email' } });
    const sameNumber = await org.api.post(rows, { data: { email: 'bob@example.com', code: 1.0 } });
    expect(sameNumber.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'data.code' } });

    const second = (await org.api.post(rows, { data: { email: 'bob@example.com', code: 2 } })).body.data;
    const clash = await org.api.patch(`${rows}/${second.id}`, { data: { code: 1 } });
    expect(clash.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'data.code' } });

    const before = await rowCount(id);
    // A repeat inside the batch names the repeating item; a clash with a stored row names the item holding it.
    const batch = await org.api.post(`${rows}/batch`, {
      rows: [{ data: { email: 'c@example.com' } }, { data: { email: 'd@example.com' } }, { data: { email: 'c@example.com' } }],
    });
    expect(batch.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'rows[2].data.email' } });
    const stored = await org.api.post(`${rows}/batch`, { rows: [{ data: { code: 7 } }, { data: { code: 8 } }, { data: { code: 1.0 } }] });
    expect(stored.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'rows[2].data.code' } });
    const storedText = await org.api.post(`${rows}/batch`, { rows: [{ data: { email: 'ada@example.com' } }, { data: { email: 'e@example.com' } }] });
    expect(storedText.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'rows[0].data.email' } });
    const batchUpdate = await org.api.patch(`${rows}/batch`, { rows: [{ id: first.body.data.id, data: { note: 'x' } }, { id: second.id, data: { email: 'ada@example.com' } }] });
    expect(batchUpdate.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'rows[1].data.email' } });
    expect(await rowCount(id)).toBe(before);
  });

  it('holds under concurrency: of many racing writers of one value exactly one succeeds', async () => {
    const { id } = await createTable(org.api, [{ name: 'Handle', field_type: 'text', options: { is_unique: true } }]);
    const clients = await Promise.all(Array.from({ length: 4 }, () => org.extraKey()));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => clients[i % clients.length].post(`/tables/${id}/rows`, { data: { handle: 'taken' } })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 201)) expect(res.body.error.code).toBe('CONFLICT');
    expect(await rowCount(id)).toBe(1);
  });

  it('refuses to turn is_unique on over duplicates, naming the field, and enforces it once on', async () => {
    const { id, detail } = await createTable(org.api, [{ name: 'Phone', field_type: 'phone' }, { name: 'Site', field_type: 'url' }]);
    const [phone, site] = detail.fields;
    const a = (await org.api.post(`/tables/${id}/rows`, { data: { phone: '+1 202-555-0143', site: 'https://a.example' } })).body.data;
    await org.api.post(`/tables/${id}/rows`, { data: { phone: '+12025550143', site: 'https://b.example' } });
    const refused = await org.api.patch(`/tables/${id}`, { fields: [{ id: site.id, options: { is_unique: true } }, { id: phone.id, options: { is_unique: true } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[1].options.is_unique' } });
    expect((await org.api.get(`/tables/${id}`)).body.data.fields.map((f: any) => f.options)).toEqual([{}, {}]);

    await org.api.patch(`/tables/${id}/rows/${a.id}`, { data: { phone: '+44 20 7183 8750' } });
    const enabled = await org.api.patch(`/tables/${id}`, { fields: [{ id: phone.id, options: { is_unique: true } }] });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.fields[0].options).toEqual({ is_unique: true });
    expect((await org.api.post(`/tables/${id}/rows`, { data: { phone: '+12025550143' } })).body.error.code).toBe('CONFLICT');

    const disabled = await org.api.patch(`/tables/${id}`, { fields: [{ id: phone.id, options: { is_unique: false } }] });
    expect(disabled.body.data.fields[0].options).toEqual({});
    expect((await org.api.post(`/tables/${id}/rows`, { data: { phone: '+12025550143' } })).status).toBe(201);
  });

  it('is an option of text, number, email, url and phone only', async () => {
    const res = await org.api.post('/tables', { name: 'Dates', fields: [{ name: 'Day', field_type: 'date', options: { is_unique: true } }] });
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[0].options.is_unique' } });
    const notBoolean = await org.api.post('/tables', { name: 'Texts', fields: [{ name: 'T', field_type: 'text', options: { is_unique: 'yes' } }] });
    expect(notBoolean.body.error.details.field).toBe('fields[0].options.is_unique');
  });
});
