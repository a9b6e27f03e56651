import { wantsEvent } from './webhook-subscription';

const tableA = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const tableB = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('wantsEvent', () => {
  const everyTable = { events: ['row.created', 'table.updated', 'member.joined'], table_ids: null };
  const onlyA = { ...everyTable, table_ids: [tableA] };

  it('matches by kind alone when the webhook is not narrowed to tables', () => {
    expect(wantsEvent(everyTable, { eventType: 'row.created', tableId: tableB })).toBe(true);
    expect(wantsEvent(everyTable, { eventType: 'row.created', tableId: null })).toBe(true);
    expect(wantsEvent(everyTable, { eventType: 'row.deleted', tableId: tableA })).toBe(false);
  });

  it('gives a narrowed webhook row and table events of its tables only', () => {
    expect(wantsEvent(onlyA, { eventType: 'row.created', tableId: tableA })).toBe(true);
    expect(wantsEvent(onlyA, { eventType: 'table.updated', tableId: tableA })).toBe(true);
    expect(wantsEvent(onlyA, { eventType: 'row.created', tableId: tableB })).toBe(false);
    expect(wantsEvent(onlyA, { eventType: 'table.updated', tableId: tableB })).toBe(false);
  });

  it('refuses a narrowed webhook a row or table event that names no table', () => {
    expect(wantsEvent(onlyA, { eventType: 'row.created', tableId: null })).toBe(false);
  });

  it('leaves other kinds to the kind alone, and never sends an unsubscribed kind of a listed table', () => {
    expect(wantsEvent(onlyA, { eventType: 'member.joined', tableId: null })).toBe(true);
    expect(wantsEvent(onlyA, { eventType: 'row.updated', tableId: tableA })).toBe(false);
  });
});
