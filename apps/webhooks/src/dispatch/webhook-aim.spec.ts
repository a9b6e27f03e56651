import { aimAllows, aimedEvent, compileAim, WebhookAim } from './webhook-aim';

const settings = {
  filter: { stage: 'won' },
  filter_fields: { stage: 'select' as const },
  watch_fields: null,
  filter_error: null,
};
const allows = (aim: WebhookAim | undefined, eventType: string, data: unknown) => aimAllows(aim, aimedEvent(eventType, data));
const rowEvent = (row: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ table_id: 't', table_name: 'Deals', row_id: 'r', row_data: row, ...extra });

describe('aimAllows: what the fan-out asks for each (event, webhook)', () => {
  it('lets every event through a webhook with no filter and no watched fields', () => {
    const aim = compileAim({ filter: null, filter_fields: null, watch_fields: null, filter_error: null });
    expect(aim).toBeUndefined();
    expect(allows(aim, 'row.created', rowEvent({ stage: 'lost' }))).toBe(true);
  });

  it('tests row.created and row.updated on the row after the change, row.deleted on the row as it was', () => {
    const aim = compileAim(settings);
    expect(allows(aim, 'row.created', rowEvent({ stage: 'won' }))).toBe(true);
    expect(allows(aim, 'row.created', rowEvent({ stage: 'lost' }))).toBe(false);
    expect(allows(aim, 'row.updated', rowEvent({ stage: 'won' }, { previous_row_data: { stage: 'lost' }, changed_fields: ['stage'] }))).toBe(true);
    expect(allows(aim, 'row.updated', rowEvent({ stage: 'lost' }, { previous_row_data: { stage: 'won' }, changed_fields: ['stage'] }))).toBe(false);
    expect(allows(aim, 'row.deleted', rowEvent({ stage: 'won' }))).toBe(true);
  });

  it('never filters other kinds', () => {
    const aim = compileAim(settings);
    expect(allows(aim, 'table.updated', { table_id: 't', table_name: 'Deals', table_slug: 'deals' })).toBe(true);
  });

  it('delivers a row.updated to a watching webhook only when changed_fields holds a watched field', () => {
    const aim = compileAim({ filter: null, filter_fields: null, watch_fields: ['stage', 'amount'], filter_error: null });
    const row = { stage: 'won', amount: 5, note: 'x' };
    expect(allows(aim, 'row.updated', rowEvent(row, { changed_fields: ['amount'] }))).toBe(true);
    expect(allows(aim, 'row.updated', rowEvent(row, { changed_fields: ['note'] }))).toBe(false);
    // Watching concerns changes: a new or deleted row still goes out.
    expect(allows(aim, 'row.created', rowEvent(row))).toBe(true);
  });

  it('matches no row event when the row lacks a named field (the table lost it) or filter_error is set', () => {
    const aim = compileAim(settings);
    expect(allows(aim, 'row.created', rowEvent({ other: 1 }))).toBe(false);
    const watching = compileAim({ filter: null, filter_fields: null, watch_fields: ['gone'], filter_error: null });
    expect(allows(watching, 'row.updated', rowEvent({ stage: 'won' }, { changed_fields: ['stage'] }))).toBe(false);
    const broken = compileAim({ ...settings, filter_error: 'The filter names the field "stage", which the table no longer has' });
    expect(allows(broken, 'row.created', rowEvent({ stage: 'won' }))).toBe(false);
    expect(allows(broken, 'table.updated', { table_id: 't' })).toBe(true);
  });
});
