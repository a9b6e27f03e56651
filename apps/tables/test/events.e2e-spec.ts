import 'reflect-metadata';
import { readOrgEvents } from '@platform/testing';
import { createTable, ISO_MS, newOrg, UUID } from './tables-fixtures';

describe('table and row events in JetStream', () => {
  it('emits exactly one event per committed change, with the contract payloads, and none for refused changes', async () => {
    const org = await newOrg();
    const { id: tableId, detail } = await createTable(org.api, [
      { name: 'Title', field_type: 'text', is_required: true },
      { name: 'Amount', field_type: 'number' },
    ]);
    const refused = await org.api.post(`/tables/${tableId}/rows`, { data: { amount: 1 } });
    expect(refused.status).toBe(400);
    const row = (await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'a', amount: 1.5 } })).body.data;
    await org.api.patch(`/tables/${tableId}/rows/${row.id}`, { data: { amount: 2 } });
    expect((await org.api.patch(`/tables/${tableId}/rows/${row.id}`, { data: { title: null } })).status).toBe(400);
    await org.api.delete(`/tables/${tableId}/rows/${row.id}`);
    const renamed = (await org.api.patch(`/tables/${tableId}`, { name: `${detail.name} renamed` })).body.data;
    await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'b' } });
    await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'c' } });
    await org.api.delete(`/tables/${tableId}`);

    const events = await readOrgEvents(org.orgId, { count: 8 });
    expect(events.map((e) => e.event.event)).toEqual([
      'table.created',
      'row.created',
      'row.updated',
      'row.deleted',
      'table.updated',
      'row.created',
      'row.created',
      'table.deleted',
    ]);
    for (const { event, subject, msgId } of events) {
      expect(event.id).toMatch(UUID);
      expect(msgId).toBe(event.id);
      expect(subject).toBe(`events.${org.orgId}.${event.event}`);
      expect(event.organization_id).toBe(org.orgId);
      expect(event.timestamp).toMatch(ISO_MS);
      expect(Object.keys(event).sort()).toEqual(['data', 'event', 'id', 'organization_id', 'timestamp']);
    }
    expect(new Set(events.map((e) => e.event.id)).size).toBe(8);
    const data = events.map((e) => e.event.data);
    expect(data[0]).toEqual({ table_id: tableId, table_name: detail.name, table_slug: detail.slug });
    expect(data[1]).toEqual({ table_id: tableId, table_name: detail.name, row_id: row.id, row_data: { title: 'a', amount: 1.5 } });
    expect(data[2]).toEqual({
      table_id: tableId,
      table_name: detail.name,
      row_id: row.id,
      row_data: { title: 'a', amount: 2 },
      previous_row_data: { title: 'a', amount: 1.5 },
      changed_fields: ['amount'],
    });
    expect(data[3]).toEqual({ table_id: tableId, table_name: detail.name, row_id: row.id, row_data: { title: 'a', amount: 2 } });
    expect(data[4]).toEqual({ table_id: tableId, table_name: renamed.name, table_slug: renamed.slug });
    expect(data[5]).toMatchObject({ table_name: renamed.name, row_data: { title: 'b', amount: null } });
    expect(data[7]).toEqual({ table_id: tableId, table_name: renamed.name, table_slug: renamed.slug });
  });

  it('names what a row update changed, and a PATCH that changes no value answers the row and emits nothing', async () => {
    const org = await newOrg();
    const { id: tableId } = await createTable(org.api, [
      { name: 'Title', field_type: 'text' },
      { name: 'Amount', field_type: 'number', options: { precision: 1 } },
      { name: 'When', field_type: 'datetime' },
      { name: 'Tags', field_type: 'multi_select', options: { values: ['x', 'y'] } },
    ]);
    const row = (await org.api.post(`/tables/${tableId}/rows`, { data: { title: 'a', amount: 1.5, when: '2024-05-01T12:00:00Z', tags: ['x'] } })).body.data;
    // The same values in other spellings: a rounded number, another offset for the same instant.
    const same = await org.api.patch(`/tables/${tableId}/rows/${row.id}`, { data: { amount: 1.46, when: '2024-05-01T14:00:00+02:00', tags: ['x'] } });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(row);
    const changed = await org.api.patch(`/tables/${tableId}/rows/${row.id}`, { data: { title: 'a', amount: 3, tags: ['x', 'y'] } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.data).toEqual({ title: 'a', amount: 3, when: '2024-05-01T12:00:00.000Z', tags: ['x', 'y'] });

    const events = await readOrgEvents(org.orgId, { count: 3 });
    expect(events.map((e) => e.event.event)).toEqual(['table.created', 'row.created', 'row.updated']);
    expect(events[2].event.data).toEqual({
      table_id: tableId,
      table_name: expect.any(String),
      row_id: row.id,
      row_data: { title: 'a', amount: 3, when: '2024-05-01T12:00:00.000Z', tags: ['x', 'y'] },
      previous_row_data: { title: 'a', amount: 1.5, when: '2024-05-01T12:00:00.000Z', tags: ['x'] },
      changed_fields: ['amount', 'tags'],
    });
  });

  it('emits nothing for changes refused in another organization', async () => {
    const [owner, intruder] = await Promise.all([newOrg(), newOrg()]);
    const { id } = await createTable(owner.api, [{ name: 'T', field_type: 'text' }]);
    const row = (await owner.api.post(`/tables/${id}/rows`, { data: { t: 'x' } })).body.data;
    await intruder.api.patch(`/tables/${id}`, { name: 'mine now' });
    await intruder.api.delete(`/tables/${id}/rows/${row.id}`);
    await intruder.api.delete(`/tables/${id}`);
    expect(await readOrgEvents(intruder.orgId, { count: 0, timeoutMs: 1_000 })).toEqual([]);
    const events = await readOrgEvents(owner.orgId, { count: 2 });
    expect(events.map((e) => e.event.event)).toEqual(['table.created', 'row.created']);
  });
});
