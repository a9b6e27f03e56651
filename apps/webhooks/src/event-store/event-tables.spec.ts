import { tableIdOf } from './event-tables';

const base = { id: 'e', timestamp: '2026-11-23T00:00:00.000Z', organization_id: 'o' };
const table = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

describe('tableIdOf', () => {
  it('answers the table of row and table events', () => {
    expect(tableIdOf({ ...base, event: 'row.created', data: { table_id: table, row_id: 'r' } })).toBe(table);
    expect(tableIdOf({ ...base, event: 'table.deleted', data: { table_id: table } })).toBe(table);
  });

  it('answers the id lowercase, as the store and the webhooks table hold it', () => {
    expect(tableIdOf({ ...base, event: 'row.updated', data: { table_id: table.toUpperCase() } })).toBe(table);
  });

  it('answers null for other kinds and for data without a valid table id', () => {
    expect(tableIdOf({ ...base, event: 'member.invited', data: { table_id: table } })).toBeNull();
    expect(tableIdOf({ ...base, event: 'row.created', data: { table_id: 'not-a-uuid' } })).toBeNull();
    expect(tableIdOf({ ...base, event: 'row.created', data: null })).toBeNull();
  });
});
