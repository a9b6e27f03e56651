import { randomUUID } from 'node:crypto';
import { CalendarOperations, RowsOperations, TablesMessages, TablesOperations } from '@contracts';
import { apiClient, createTestOrg, sendToService, stackEnv } from '@platform/testing';
import { connect, NatsConnection } from 'nats';

/**
 * Input is checked once, at the gateway; a service trusts a message on its subject and checks only what
 * the edge cannot know. These messages skip the gateway, as another service's would: the service still
 * refuses a row's values its table's fields do not take, and a date range that ends before it starts,
 * naming the field, and writes nothing.
 */
describe('services check what only they can know', () => {
  let nc: NatsConnection;
  let org: { id: string; plan: number; addons: string[] };
  let api: ReturnType<typeof apiClient>;
  let tableId: string;

  const send = (subject: string, params: object) => sendToService(nc, subject, org, params);

  beforeAll(async () => {
    nc = await connect({ servers: stackEnv().NATS_URL.split(',') });
    const created = await createTestOrg({ scopes: '*' });
    org = { id: created.orgId, plan: 250, addons: [] };
    api = apiClient(created.key);
    const table = await api.post('/tables', { name: `Checked ${randomUUID()}`, fields: [{ name: 'Amount', field_type: 'number' }] });
    expect(table.status).toBe(201);
    tableId = table.body.data.id;
  });

  afterAll(async () => {
    await nc?.close();
  });

  it.each([
    ['rows', RowsOperations.create.subject, () => ({ tableId, data: { amount: 'many' } }), 'data.amount'],
    ['rows', RowsOperations.create.subject, () => ({ tableId, data: { nope: 1 } }), 'data.nope'],
    ['rows', RowsOperations.createBatch.subject, () => ({ tableId, rows: [{ data: { amount: 1 } }, { data: { amount: [] } }] }), 'rows[1].data.amount'],
    ['calendar', CalendarOperations.availabilityWindows.subject, () => ({ from: '2026-03-10', to: '2026-03-01' }), 'to'],
  ])('%s refuses %s input the edge cannot judge, naming the field', async (_service, subject, params, field) => {
    const reply = await send(subject, params());
    expect(reply).toEqual({ ok: false, error: expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field }) }) });
    const rows = await api.get(`/tables/${tableId}/rows`);
    expect(rows.body.pagination.total).toBe(0);
  });

  it('answers a checked message, and the message another context asks (which ids name tables of the organization)', async () => {
    expect(await send(TablesOperations.get.subject, { tableId })).toMatchObject({ ok: true, data: { id: tableId, fields: [{ slug: 'amount' }] } });
    const unknown = randomUUID();
    expect(await send(TablesMessages.existingIds.subject, { tableIds: [tableId.toUpperCase(), unknown] })).toEqual({ ok: true, data: { table_ids: [tableId] } });
  });
});
