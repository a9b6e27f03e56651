import 'reflect-metadata';
import { readOrgEvents, startProcess } from '@platform/testing';
import { createTable, newOrg } from './tables-fixtures';

const ROWS = 400;

describe('tables relay killed mid-batch', () => {
  it('loses no event and leaves no duplicate in the stream', async () => {
    const org = await newOrg();
    const clients = [org.api, await org.extraKey()];
    const { id: tableId } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    // An extra relay competes for batches with the stack's own; it is killed while rows pour in.
    const relay = await startProcess('tables-relay');
    const writes = Promise.all(
      Array.from({ length: ROWS }, (_, i) => clients[i % clients.length].post(`/tables/${tableId}/rows`, { data: { n: i } })),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    relay.kill('SIGKILL');
    const created = await writes;
    expect(created.filter((res) => res.status !== 201).map((res) => res.body)).toEqual([]);

    const events = await readOrgEvents(org.orgId, { count: ROWS + 1, timeoutMs: 30_000 });
    expect(events).toHaveLength(ROWS + 1);
    const ids = events.map((e) => e.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rowIds = events.filter((e) => e.event.event === 'row.created').map((e) => e.event.data.row_id);
    expect(new Set(rowIds)).toEqual(new Set(created.map((res) => res.body.data.id)));
    const values = events.filter((e) => e.event.event === 'row.created').map((e) => e.event.data.row_data.n);
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i));
  });

  it('loses no event of row batches written while a relay dies, and repeats none', async () => {
    const BATCHES = 8;
    const org = await newOrg();
    const clients = [org.api, await org.extraKey()];
    const { id: tableId } = await createTable(org.api, [{ name: 'N', field_type: 'number' }]);
    const relay = await startProcess('tables-relay');
    const writes = Promise.all(
      Array.from({ length: BATCHES }, (_, b) =>
        clients[b % clients.length].post(`/tables/${tableId}/rows/batch`, { rows: Array.from({ length: 100 }, (_, i) => ({ data: { n: b * 100 + i } })) }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    relay.kill('SIGKILL');
    const created = await writes;
    expect(created.filter((res) => res.status !== 201).map((res) => res.body)).toEqual([]);

    const total = BATCHES * 100;
    const events = await readOrgEvents(org.orgId, { count: total + 1, timeoutMs: 30_000 });
    expect(events).toHaveLength(total + 1);
    const ids = events.map((e) => e.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rowIds = events.filter((e) => e.event.event === 'row.created').map((e) => e.event.data.row_id);
    expect(new Set(rowIds)).toEqual(new Set(created.flatMap((res) => res.body.data.map((row: { id: string }) => row.id))));
    const values = events.filter((e) => e.event.event === 'row.created').map((e) => e.event.data.row_data.n);
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
  }, 180_000);
});
