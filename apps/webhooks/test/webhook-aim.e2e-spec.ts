import { randomUUID } from 'node:crypto';
import { apiClient, createTestOrg, eventually } from '@platform/testing';
import { deliveriesOf, sleep, uniquePath, webhookScene } from './webhook-fixtures';

const QUIET_MS = 1_500;

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

interface Payload {
  id: string;
  event: string;
  data: { row_id: string; row_data: Record<string, unknown>; changed_fields?: string[] };
}

const DEAL_FIELDS = [
  { name: 'Title', field_type: 'text' },
  { name: 'Stage', field_type: 'select', options: { values: ['open', 'won', 'lost'] } },
  { name: 'Amount', field_type: 'number' },
  { name: 'Note', field_type: 'long_text' },
];

describe('webhooks aimed at rows: filter, watch_fields, filter_error', () => {
  const scene = webhookScene();

  const payloadsAt = (path: string): Payload[] => scene.receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')) as Payload);

  async function createDeals(): Promise<{ id: string; fields: Array<{ id: string; slug: string }> }> {
    const response = await scene.api.post('/tables', { name: `Deals ${randomUUID().slice(0, 8)}`, fields: DEAL_FIELDS });
    expect(response.status).toBe(201);
    return response.body.data;
  }

  async function createRow(tableId: string, data: Record<string, unknown>): Promise<string> {
    const response = await scene.api.post(`/tables/${tableId}/rows`, { data });
    expect(response.status).toBe(201);
    return response.body.data.id;
  }

  async function updateRow(tableId: string, rowId: string, data: Record<string, unknown>): Promise<void> {
    expect((await scene.api.patch(`/tables/${tableId}/rows/${rowId}`, { data })).status).toBe(200);
  }

  async function createHook(path: string, body: Record<string, unknown>) {
    const response = await scene.api.post('/webhooks', { name: 'aimed', url: scene.receiver.url(path), ...body });
    expect(response.status).toBe(201);
    return response.body.data;
  }

  it('delivers only the rows that match the filter, tested after the change (row.deleted: before), and records nothing for the rest', async () => {
    const table = await createDeals();
    const path = uniquePath('won');
    const everything = uniquePath('everything');
    const filter = { stage: 'won', amount: { gte: 1000 } };
    const hook = await createHook(path, { events: ['row.created', 'row.updated', 'row.deleted'], table_ids: [table.id], filter });
    expect(hook).toMatchObject({ filter, watch_fields: null, filter_error: null });
    const plain = await createHook(everything, { events: ['row.created', 'row.updated', 'row.deleted'], table_ids: [table.id] });
    expect(plain).toMatchObject({ filter: null, watch_fields: null, filter_error: null });

    const small = await createRow(table.id, { title: 'small', stage: 'won', amount: 10 });
    const big = await createRow(table.id, { title: 'big', stage: 'won', amount: 5000 });
    const open = await createRow(table.id, { title: 'open', stage: 'open', amount: 5000 });
    await updateRow(table.id, open, { stage: 'won' });
    await updateRow(table.id, big, { stage: 'lost' });
    expect((await scene.api.delete(`/tables/${table.id}/rows/${small}`)).status).toBe(200);
    expect((await scene.api.delete(`/tables/${table.id}/rows/${open}`)).status).toBe(200);

    await eventually(() => expect(payloadsAt(everything)).toHaveLength(7), { timeoutMs: 30_000 });
    await eventually(() => expect(payloadsAt(path)).toHaveLength(3), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);
    const seen = payloadsAt(path).map((p) => `${p.event} ${p.data.row_id}`);
    expect(seen.sort()).toEqual([`row.created ${big}`, `row.updated ${open}`, `row.deleted ${open}`].sort());
    // The filtered-out events never became delivery records.
    expect(await deliveriesOf(scene.api, hook.id)).toHaveLength(3);
  });

  it('delivers a row.updated only when changed_fields holds a watched field', async () => {
    const table = await createDeals();
    const path = uniquePath('watch');
    const hook = await createHook(path, { events: ['row.updated'], table_ids: [table.id], watch_fields: ['stage'] });
    expect(hook.watch_fields).toEqual(['stage']);
    const row = await createRow(table.id, { title: 'deal', stage: 'open', amount: 1 });
    await updateRow(table.id, row, { note: 'called them' });
    await updateRow(table.id, row, { amount: 2 });
    await updateRow(table.id, row, { stage: 'won', note: 'signed' });
    await eventually(() => expect(payloadsAt(path)).toHaveLength(1), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);
    expect(payloadsAt(path)).toHaveLength(1);
    expect(payloadsAt(path)[0].data.changed_fields?.sort()).toEqual(['note', 'stage']);
    expect(await deliveriesOf(scene.api, hook.id)).toHaveLength(1);
  });

  it('shows filter_error when the table loses a named field, matches nothing then, and an update clears it', async () => {
    const table = await createDeals();
    const path = uniquePath('lost-field');
    const hook = await createHook(path, { events: ['row.created'], table_ids: [table.id], filter: { amount: { gt: 0 } } });
    const amount = table.fields.find((field) => field.slug === 'amount');
    const changed = await scene.api.patch(`/tables/${table.id}`, { remove_fields: [amount?.id] });
    expect(changed.status).toBe(200);
    expect(changed.body.data.fields.map((field: { slug: string }) => field.slug)).not.toContain('amount');

    await eventually(
      async () => expect((await scene.api.get(`/webhooks/${hook.id}`)).body.data.filter_error).toEqual(expect.stringContaining('"amount"')),
      { timeoutMs: 20_000 },
    );
    const listed = (await scene.api.get('/webhooks?limit=100')).body.data.find((w: { id: string }) => w.id === hook.id);
    expect(listed.filter_error).toEqual(expect.stringContaining('amount'));
    await createRow(table.id, { title: 'after the loss', stage: 'won' });
    await sleep(QUIET_MS * 2);
    expect(payloadsAt(path)).toHaveLength(0);

    // The filter still names the lost field: refused; a filter on what the table has clears the error.
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { name: 'renamed' })).body.data.filter_error).toEqual(expect.stringContaining('amount'));
    const stale = await scene.api.patch(`/webhooks/${hook.id}`, { filter: { amount: { gt: 0 } } });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'filter.amount' } });
    const fixed = await scene.api.patch(`/webhooks/${hook.id}`, { filter: { stage: 'won' } });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ filter: { stage: 'won' }, filter_error: null });
    const row = await createRow(table.id, { title: 'after the fix', stage: 'won' });
    await eventually(() => expect(payloadsAt(path).map((p) => p.data.row_id)).toEqual([row]), { timeoutMs: 20_000 });
  });

  it('shows filter_error on a disabled webhook of an organization with no active one, when the table loses a named field', async () => {
    // Its own organization: no active webhook there, so the fan-out keeps the organization's row events whole, unread.
    const quiet = apiClient((await createTestOrg()).key);
    const table = (await quiet.post('/tables', { name: `Deals ${randomUUID().slice(0, 8)}`, fields: DEAL_FIELDS })).body.data;
    const hook = (await quiet.post('/webhooks', { name: 'asleep', url: scene.receiver.url(uniquePath('asleep')), events: ['row.created'], table_ids: [table.id], filter: { amount: { gt: 0 } } }))
      .body.data;
    expect((await quiet.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    const amount = table.fields.find((field: { slug: string }) => field.slug === 'amount');
    expect((await quiet.patch(`/tables/${table.id}`, { remove_fields: [amount.id] })).status).toBe(200);
    await eventually(
      async () => expect((await quiet.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ active: false, filter_error: expect.stringContaining('"amount"') }),
      { timeoutMs: 20_000 },
    );
  });

  it('recovers only the events its filter lets through', async () => {
    const table = await createDeals();
    const path = uniquePath('recover');
    const since = new Date(Date.now() - 1_000).toISOString();
    const hook = await createHook(path, { events: ['row.created'], table_ids: [table.id], filter: { stage: 'won' } });
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    const won = await createRow(table.id, { title: 'won while disabled', stage: 'won' });
    await createRow(table.id, { title: 'lost while disabled', stage: 'lost' });
    const marker = await createRow(table.id, { title: 'marker', stage: 'won' });
    const reader = await createHook(uniquePath('marker'), { events: ['row.created'], table_ids: [table.id] });
    await createRow(table.id, { title: 'seen by the reader' });
    await eventually(async () => expect((await deliveriesOf(scene.api, reader.id)).length).toBeGreaterThan(0), { timeoutMs: 20_000 });
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(200);

    const recovered = await scene.api.post(`/webhooks/${hook.id}/recover`, { since });
    expect(recovered.status).toBeLessThan(300);
    await eventually(() => expect(payloadsAt(path).map((p) => p.data.row_id).sort()).toEqual([won, marker].sort()), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);
    expect(payloadsAt(path)).toHaveLength(2);
  });

  it('refuses a filter or watched fields that do not fit the one table, naming them, and changes nothing', async () => {
    const table = await createDeals();
    const other = await createDeals();
    const before = (await scene.api.get('/webhooks?limit=100')).body.pagination.total;
    const base = { name: 'refused', url: scene.receiver.url(uniquePath('refused')), events: ['row.created'] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filter: { stage: 'won' } }, 'filter'],
      [{ filter: { stage: 'won' }, table_ids: [table.id, other.id] }, 'filter'],
      [{ watch_fields: ['stage'] }, 'watch_fields'],
      [{ filter: { nope: 1 }, table_ids: [table.id] }, 'filter.nope'],
      [{ filter: { amount: { gt: 'many' } }, table_ids: [table.id] }, 'filter.amount.gt'],
      [{ filter: { title: { between: 1 } }, table_ids: [table.id] }, 'filter.title.between'],
      [{ filter: { created_at: { gt: '2026-01-01T00:00:00Z' } }, table_ids: [table.id] }, 'filter.created_at'],
      [{ filter: 'stage=won', table_ids: [table.id] }, 'filter'],
      [{ watch_fields: ['stage', 'nope'], table_ids: [table.id] }, 'watch_fields[1]'],
      [{ watch_fields: [], table_ids: [table.id] }, 'watch_fields'],
      [{ rate_limit: 0 }, 'rate_limit'],
      [{ rate_limit: 1001 }, 'rate_limit'],
      [{ rate_limit: 2.5 }, 'rate_limit'],
    ];
    for (const [extra, field] of cases) {
      const response = await scene.api.post('/webhooks', { ...base, ...extra });
      expect({ extra, status: response.status, error: response.body.error }).toMatchObject({ extra, status: 400, error: { code: 'VALIDATION_ERROR', details: { field } } });
    }
    expect((await scene.api.get('/webhooks?limit=100')).body.pagination.total).toBe(before);

    const hook = await createHook(uniquePath('kept'), { events: ['row.created'], table_ids: [table.id], filter: { stage: 'won' } });
    // Moving the webhook to a table without its filter's field, or to every table, is refused.
    const moved = await scene.api.patch(`/webhooks/${hook.id}`, { table_ids: null });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details.field).toBe('filter');
    expect((await scene.api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ table_ids: [table.id], filter: { stage: 'won' } });
    const cleared = await scene.api.patch(`/webhooks/${hook.id}`, { filter: null, table_ids: null, rate_limit: 5 });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ filter: null, table_ids: null, rate_limit: 5 });
  });

  it('keeps duration_ms and the first 1,024 bytes of the answer on every delivery record', async () => {
    const table = await createDeals();
    const path = uniquePath('answer');
    scene.receiver.on(path, (_request, count) => (count === 1 ? { status: 500, body: 'é'.repeat(600) } : { status: 200, body: '{"ok":true}' }));
    const hook = await createHook(path, { events: ['row.created'], table_ids: [table.id] });
    await createRow(table.id, { title: 'answered' });
    await eventually(async () => expect(await deliveriesOf(scene.api, hook.id)).toHaveLength(2), { timeoutMs: 30_000 });
    const [second, first] = await deliveriesOf(scene.api, hook.id);
    expect(first).toMatchObject({ attempt: 1, success: false, status_code: 500 });
    expect(Buffer.byteLength(first.response_body)).toBeLessThanOrEqual(1_024);
    expect(first.response_body.startsWith('é'.repeat(500))).toBe(true);
    expect(second).toMatchObject({ attempt: 2, success: true, status_code: 200, response_body: '{"ok":true}' });
    for (const record of [first, second]) expect(Number.isInteger(record.duration_ms) && record.duration_ms >= 0).toBe(true);
  });
});
