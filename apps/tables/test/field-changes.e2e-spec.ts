import 'reflect-metadata';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

describe('field changes that keep the data valid', () => {
  let org: OrgClient;

  beforeAll(async () => {
    org = await newOrg();
  });

  it('refuses to drop select values rows still hold, naming fields[i].options.values, and drops unused ones', async () => {
    const { id, detail } = await createTable(org.api, [
      { name: 'Status', field_type: 'select', options: { values: ['open', 'closed', 'held'] } },
      { name: 'Tags', field_type: 'multi_select', options: { values: ['a', 'b', 'c'] } },
    ]);
    const [status, tags] = detail.fields;
    await org.api.post(`/tables/${id}/rows`, { data: { status: 'open', tags: ['a', 'b'] } });

    const dropUsed = await org.api.patch(`/tables/${id}`, { fields: [{ id: tags.id, options: { values: ['a', 'c'] } }] });
    expect(dropUsed.status).toBe(400);
    expect(dropUsed.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[0].options.values' } });
    const dropUsedSelect = await org.api.patch(`/tables/${id}`, { fields: [{ id: tags.id, options: { values: ['a', 'b'] } }, { id: status.id, options: { values: ['closed'] } }] });
    expect(dropUsedSelect.body.error.details.field).toBe('fields[1].options.values');
    // Nothing of the refused change stayed, not even its valid first entry.
    expect((await org.api.get(`/tables/${id}`)).body.data.fields.map((f: any) => f.options.values)).toEqual([['open', 'closed', 'held'], ['a', 'b', 'c']]);

    const dropUnused = await org.api.patch(`/tables/${id}`, { fields: [{ id: status.id, options: { values: ['open', 'held'] } }, { id: tags.id, options: { values: ['b', 'a'] } }] });
    expect(dropUnused.status).toBe(200);
    expect(dropUnused.body.data.fields.map((f: any) => f.options.values)).toEqual([['open', 'held'], ['b', 'a']]);
  });

  it('re-rounds stored numbers when precision gets coarser, in the same change', async () => {
    const { id, detail } = await createTable(org.api, [
      { name: 'Amount', field_type: 'number' },
      { name: 'Price', field_type: 'currency', options: { precision: 3 } },
    ]);
    const [amount, price] = detail.fields;
    const values = [
      [1.005, 2.0005],
      [-2.5, -1.2345],
      [7, null],
    ];
    for (const [a, p] of values) await org.api.post(`/tables/${id}/rows`, { data: { amount: a, price: p } });
    const changed = await org.api.patch(`/tables/${id}`, { fields: [{ id: amount.id, options: { precision: 0 } }, { id: price.id, options: { precision: 2 } }] });
    expect(changed.status).toBe(200);
    const rows = (await org.api.get(`/tables/${id}/rows`)).body.data.map((row: any) => [row.data.amount, row.data.price]);
    expect(rows).toEqual([
      [1, 2],
      [-3, -1.24],
      [7, null],
    ]);
    const sorted = (await org.api.get(`/tables/${id}/rows?sort=amount`)).body.data.map((row: any) => row.data.amount);
    expect(sorted).toEqual([-3, 1, 7]);
  });

  it('holds at most 200 fields, naming fields', async () => {
    const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}`, field_type: 'text' }));
    const { id } = await createTable(org.api, many(150, 'A'));
    const over = await org.api.patch(`/tables/${id}`, { fields: many(51, 'B') });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields' } });
    const upTo = await org.api.patch(`/tables/${id}`, { fields: many(50, 'B') });
    expect(upTo.status).toBe(200);
    expect(upTo.body.data.fields).toHaveLength(200);
    const createOver = await org.api.post('/tables', { name: 'Too wide', fields: many(201, 'C') });
    expect(createOver.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields' } });
  });

  it('refuses a coarser precision that would make values of a unique field equal, and changes nothing', async () => {
    const { id, detail } = await createTable(org.api, [{ name: 'N', field_type: 'number', options: { is_unique: true, precision: 2 } }]);
    const [n] = detail.fields;
    for (const value of [1.01, 1.14, 2.5]) expect((await org.api.post(`/tables/${id}/rows`, { data: { n: value } })).status).toBe(201);
    const values = async () => (await org.api.get(`/tables/${id}/rows?sort=n`)).body.data.map((row: any) => row.data.n);
    const refused = await org.api.patch(`/tables/${id}`, { fields: [{ id: n.id, options: { is_unique: true, precision: 0 } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields[0].options.precision' } });
    expect((await org.api.get(`/tables/${id}`)).body.data.fields[0].options.precision).toBe(2);
    expect(await values()).toEqual([1.01, 1.14, 2.5]);
    // One decimal keeps them apart: that change goes through and re-rounds.
    expect((await org.api.patch(`/tables/${id}`, { fields: [{ id: n.id, options: { is_unique: true, precision: 1 } }] })).status).toBe(200);
    expect(await values()).toEqual([1, 1.1, 2.5]);
  });

  it('counts and names fields against the table as the change before it left it, when PATCHes race', async () => {
    const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}`, field_type: 'text' }));
    const wide = await createTable(org.api, many(195, 'A'));
    const adds = await Promise.all(Array.from({ length: 10 }, (_, i) => org.api.patch(`/tables/${wide.id}`, { fields: [{ name: `B ${i}`, field_type: 'text' }] })));
    expect(adds.filter((res) => res.status === 200)).toHaveLength(5);
    for (const res of adds.filter((r) => r.status !== 200)) expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'fields' } });
    expect((await org.api.get(`/tables/${wide.id}`)).body.data.fields).toHaveLength(200);

    const { id } = await createTable(org.api, []);
    const same = await Promise.all(Array.from({ length: 10 }, () => org.api.patch(`/tables/${id}`, { fields: [{ name: 'Dup', field_type: 'text' }] })));
    expect(same.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of same.filter((r) => r.status !== 200)) expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((await org.api.get(`/tables/${id}`)).body.data.fields).toHaveLength(1);
  });
});
