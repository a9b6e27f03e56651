import 'reflect-metadata';
import { readOrgEvents } from '@platform/testing';
import { createTable, newOrg } from './tables-fixtures';

const ROWS = 300;

describe('single creates that arrive together', () => {
  it('are written together, each row once with one event, and the shared messages carry the events in order', async () => {
    const org = await newOrg();
    const clients = [org.api, await org.extraKey(), await org.extraKey()];
    const { id: tableId } = await createTable(org.api, [
      { name: 'N', field_type: 'number' },
      { name: 'Tags', field_type: 'multi_select', options: { values: ['a', 'b'] } },
      { name: 'Title', field_type: 'text' },
    ]);
    const created = await Promise.all(
      Array.from({ length: ROWS }, (_, n) => clients[n % clients.length].post(`/tables/${tableId}/rows`, { data: { n, tags: n % 2 ? ['a', 'b'] : [], title: `row ${n}` } })),
    );
    expect(created.filter((res) => res.status !== 201).map((res) => res.body)).toEqual([]);
    for (const [n, res] of created.entries()) expect(res.body.data.data).toEqual({ n, tags: n % 2 ? ['a', 'b'] : [], title: `row ${n}` });

    const listed = await org.api.get(`/tables/${tableId}/rows?limit=1`);
    expect(listed.body.pagination.total).toBe(ROWS);

    const events = await readOrgEvents(org.orgId, { count: ROWS + 1, timeoutMs: 30_000 });
    const rowEvents = events.filter((e) => e.event.event === 'row.created');
    expect(rowEvents).toHaveLength(ROWS);
    expect(new Set(rowEvents.map((e) => e.event.id)).size).toBe(ROWS);
    const byRow = new Map(rowEvents.map((e) => [e.event.data.row_id, e.event.data.row_data]));
    for (const [n, res] of created.entries()) expect(byRow.get(res.body.data.id)).toEqual({ n, tags: n % 2 ? ['a', 'b'] : [], title: `row ${n}` });

    // Some messages carried several creates' events: named after the first, each message's events in its order.
    const messages = new Map<number, typeof rowEvents>();
    for (const e of rowEvents) messages.set(e.seq, [...(messages.get(e.seq) ?? []), e]);
    const shared = [...messages.values()].filter((group) => group.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (const group of messages.values()) expect(group[0].msgId).toBe(group[0].event.id);
  }, 120_000);

  it('leave a table with a unique field to single statements, and each refused repeat names its field', async () => {
    const org = await newOrg();
    const { id: tableId } = await createTable(org.api, [{ name: 'Code', field_type: 'text', options: { is_unique: true } }]);
    const created = await Promise.all(Array.from({ length: 40 }, (_, n) => org.api.post(`/tables/${tableId}/rows`, { data: { code: `c${n % 20}` } })));
    expect(created.filter((res) => res.status === 201)).toHaveLength(20);
    const refused = created.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(20);
    for (const res of refused) expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'data.code' } });
    const events = await readOrgEvents(org.orgId, { count: 21, timeoutMs: 15_000 });
    expect(events.filter((e) => e.event.event === 'row.created')).toHaveLength(20);
  }, 60_000);
});
