import 'reflect-metadata';
import type { ApiClient } from '@platform/testing';
import { createTable, filterQuery, newOrg, OrgClient } from './tables-fixtures';

const CYCLES = 20;
const FIELDS_PER_CYCLE = 100;

async function allRows(api: ApiClient, tableId: string, query = ''): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await api.get(`/tables/${tableId}/rows?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return rows;
}

/**
 * @run-alone: twenty changes of 100 fields each cancel and restart the table's index builds while a writer
 * runs; beside the parallel specs on two cores, one change waited past the gateway's 10 s deadline.
 */
describe('rows table storage through many field additions and removals', () => {
  let org: OrgClient;

  beforeAll(async () => {
    org = await newOrg();
  });

  it(`stays usable through ${CYCLES} cycles of ${FIELDS_PER_CYCLE} fields, keeping every row and every index, with a writer running`, async () => {
    const { id } = await createTable(org.api, [
      { name: 'Email', field_type: 'email', options: { is_unique: true } },
      { name: 'Amount', field_type: 'number' },
      { name: 'Name', field_type: 'text' },
    ]);
    const before = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await org.api.post(`/tables/${id}/rows`, { data: { email: `r${i}@example.com`, amount: (i * 7) % 20, name: i % 2 ? `odd ${i}` : `even ${i}` } });
      expect(res.status).toBe(201);
      before.push(res.body.data);
    }

    let cycling = true;
    const writer = await org.extraKey();
    const written: string[] = [];
    const writerStatuses = new Set<number>();
    const writing = (async () => {
      for (let i = 0; cycling; i += 1) {
        const res = await writer.post(`/tables/${id}/rows`, { data: { email: `w${i}@example.com`, amount: 100 + i, name: `writer ${i}` } });
        writerStatuses.add(res.status);
        if (res.status === 201) written.push(res.body.data.id);
      }
    })();

    const statuses: number[] = [];
    try {
      for (let cycle = 0; cycle < CYCLES; cycle += 1) {
        const fields = Array.from({ length: FIELDS_PER_CYCLE }, (_, i) => ({ name: `Extra ${cycle} ${i}`, field_type: 'number' }));
        const added = await org.api.patch(`/tables/${id}`, { fields });
        statuses.push(added.status);
        if (added.status !== 200) break;
        const extra = added.body.data.fields.slice(3).map((field: any) => field.id);
        expect(extra).toHaveLength(FIELDS_PER_CYCLE);
        const removed = await org.api.patch(`/tables/${id}`, { remove_fields: extra });
        statuses.push(removed.status);
        if (removed.status !== 200) break;
      }
    } finally {
      cycling = false;
      await writing;
    }
    expect(statuses).toEqual(Array(CYCLES * 2).fill(200));
    expect([...writerStatuses]).toEqual([201]);
    expect(written.length).toBeGreaterThan(0);

    const detail = (await org.api.get(`/tables/${id}`)).body.data;
    expect(detail.fields.map((field: any) => field.slug)).toEqual(['email', 'amount', 'name']);
    expect(detail.row_count).toBe(before.length + written.length);

    const rows = await allRows(org.api, id);
    expect(rows).toHaveLength(before.length + written.length);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const row of before) expect(byId.get(row.id)).toEqual(row);
    for (const rowId of written) expect(byId.has(rowId)).toBe(true);

    const duplicate = await org.api.post(`/tables/${id}/rows`, { data: { email: 'r3@example.com' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'data.email' } });

    const sorted = (await allRows(org.api, id, '&sort=amount&order=desc')).map((row) => row.data.amount);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    expect(sorted).toHaveLength(rows.length);

    const odd = await allRows(org.api, id, filterQuery({ name: { starts_with: 'odd' } }).replace('?', '&'));
    expect(odd.map((row) => row.data.name).sort()).toEqual(before.filter((_, i) => i % 2).map((row) => row.data.name).sort());
  }, 600_000);
});
