import 'reflect-metadata';
import { readOrgEvents } from '@platform/testing';
import { createTable, newOrg, OrgClient, UUID } from './tables-fixtures';

describe('row batches', () => {
  let org: OrgClient;
  let tableId: string;
  const batch = () => `/tables/${tableId}/rows/batch`;

  beforeAll(async () => {
    org = await newOrg();
    tableId = (
      await createTable(org.api, [
        { name: 'Title', field_type: 'text', is_required: true },
        { name: 'Amount', field_type: 'number', options: { precision: 2 } },
      ])
    ).id;
  });

  const countRows = async () => (await org.api.get(`/tables/${tableId}`)).body.data.row_count as number;

  it('creates, updates and deletes up to 100 rows, answering them in order with one event per row', async () => {
    const before = await countRows();
    const created = await org.api.post(batch(), { rows: Array.from({ length: 100 }, (_, i) => ({ data: { title: `r${i}`, amount: i + 0.005 } })) });
    expect(created.status).toBe(201);
    expect(created.body.data).toHaveLength(100);
    created.body.data.forEach((row: any, i: number) => {
      expect(row.id).toMatch(UUID);
      expect(row.data).toEqual({ title: `r${i}`, amount: Math.round((i + 0.01) * 100) / 100 });
    });
    expect(await countRows()).toBe(before + 100);
    const [first, second, third] = created.body.data;
    const stored = await org.api.get(`/tables/${tableId}/rows/${second.id}`);
    expect(stored.body.data).toEqual(second);

    const updated = await org.api.patch(batch(), {
      rows: [
        { id: third.id, data: { amount: 7 } },
        { id: first.id, data: { title: 'r0' } },
        { id: second.id, data: { title: 'two', amount: null } },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.map((row: any) => [row.id, row.data])).toEqual([
      [third.id, { title: 'r2', amount: 7 }],
      [first.id, { title: 'r0', amount: 0.01 }],
      [second.id, { title: 'two', amount: null }],
    ]);

    const deleted = await org.api.post(`/tables/${tableId}/rows/batch-delete`, { ids: [first.id, third.id] });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: '2 rows deleted' });
    expect((await org.api.get(`/tables/${tableId}/rows/${first.id}`)).status).toBe(404);
    expect(await countRows()).toBe(before + 98);

    const events = await readOrgEvents(org.orgId, { count: 105 });
    const kinds = events.map((e) => e.event.event);
    expect(kinds.filter((kind) => kind === 'row.created')).toHaveLength(100);
    // The unchanged item (first) emits nothing.
    const updates = events.filter((e) => e.event.event === 'row.updated').map((e) => e.event.data);
    expect(updates.map((data) => [data.row_id, data.changed_fields])).toEqual([
      [third.id, ['amount']],
      [second.id, ['title', 'amount']],
    ]);
    expect(updates[1].previous_row_data).toEqual({ title: 'r1', amount: 1.01 });
    const deletes = events.filter((e) => e.event.event === 'row.deleted').map((e) => e.event.data);
    expect(deletes.map((data) => [data.row_id, data.row_data])).toEqual([
      [first.id, { title: 'r0', amount: 0.01 }],
      [third.id, { title: 'r2', amount: 7 }],
    ]);
    expect(events).toHaveLength(105);
  });

  it('writes nothing when one item is invalid, naming the item', async () => {
    const before = await countRows();
    const refused = await org.api.post(batch(), { rows: [{ data: { title: 'ok' } }, { data: { title: 'ok' } }, { data: { title: 'ok' } }, { data: { title: 'x', amount: 'many' } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'rows[3].data.amount' } });
    const missing = await org.api.post(batch(), { rows: [{ data: { title: 'ok' } }, { data: { amount: 1 } }] });
    expect(missing.body.error.details.field).toBe('rows[1].data.title');
    expect(await countRows()).toBe(before);

    const tooMany = await org.api.post(batch(), { rows: Array.from({ length: 101 }, () => ({ data: { title: 'x' } })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.field).toBe('rows');
    expect((await org.api.post(batch(), { rows: [] })).body.error.details.field).toBe('rows');
    expect((await org.api.post(batch(), { rows: [{ data: { title: 'x' }, extra: 1 }] })).body.error.details.field).toBe('rows[0].extra');
    expect(await countRows()).toBe(before);
  });

  it('updates and deletes nothing when an id is invalid or unknown', async () => {
    const rows = (await org.api.post(batch(), { rows: [{ data: { title: 'a', amount: 1 } }, { data: { title: 'b', amount: 2 } }] })).body.data;
    const unknownId = '00000000-0000-4000-8000-000000000000';

    const badValue = await org.api.patch(batch(), { rows: [{ id: rows[0].id, data: { amount: 5 } }, { id: rows[1].id, data: { title: null } }] });
    expect(badValue.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'rows[1].data.title' } });
    const badId = await org.api.patch(batch(), { rows: [{ id: rows[0].id, data: { amount: 5 } }, { id: 'nope', data: {} }] });
    expect(badId.body.error.details.field).toBe('rows[1].id');
    const twice = await org.api.patch(batch(), { rows: [{ id: rows[0].id, data: { amount: 5 } }, { id: rows[0].id, data: { amount: 6 } }] });
    expect(twice.body.error.details.field).toBe('rows[1].id');
    const unknown = await org.api.patch(batch(), { rows: [{ id: rows[0].id, data: { amount: 5 } }, { id: unknownId, data: { amount: 6 } }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await org.api.get(`/tables/${tableId}/rows/${rows[0].id}`)).body.data.data.amount).toBe(1);

    const deleteBadId = await org.api.post(`/tables/${tableId}/rows/batch-delete`, { ids: [rows[0].id, 42] });
    expect(deleteBadId.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'ids[1]' } });
    const deleteUnknown = await org.api.post(`/tables/${tableId}/rows/batch-delete`, { ids: [rows[0].id, rows[1].id, unknownId] });
    expect(deleteUnknown.status).toBe(404);
    expect((await org.api.get(`/tables/${tableId}/rows/${rows[0].id}`)).status).toBe(200);
  });

  it('never touches another organization\'s rows', async () => {
    const intruder = await newOrg();
    const row = (await org.api.post(batch(), { rows: [{ data: { title: 'mine' } }] })).body.data[0];
    expect((await intruder.api.post(batch(), { rows: [{ data: { title: 'x' } }] })).status).toBe(404);
    expect((await intruder.api.patch(batch(), { rows: [{ id: row.id, data: { title: 'theirs' } }] })).status).toBe(404);
    expect((await intruder.api.post(`/tables/${tableId}/rows/batch-delete`, { ids: [row.id] })).status).toBe(404);
    expect((await org.api.get(`/tables/${tableId}/rows/${row.id}`)).body.data.data.title).toBe('mine');
  });
});
