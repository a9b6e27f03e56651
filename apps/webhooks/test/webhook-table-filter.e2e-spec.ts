import { randomUUID } from 'node:crypto';
import { ApiClient, eventually } from '@platform/testing';
import { deliveriesOf, recoverAndWait, sleep, uniquePath, webhookScene } from './webhook-fixtures';

const QUIET_MS = 1_500;

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

interface Payload {
  id: string;
  event: string;
  data: { table_id: string; row_id?: string; table_name?: string };
}

describe('webhooks narrowed to tables (table_ids)', () => {
  const scene = webhookScene();

  const payloadsAt = (path: string): Payload[] => scene.receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')) as Payload);

  async function createTable(client: ApiClient, label: string): Promise<string> {
    const response = await client.post('/tables', { name: `${label} ${randomUUID().slice(0, 8)}`, fields: [{ name: 'Title', field_type: 'text' }] });
    expect(response.status).toBe(201);
    return response.body.data.id;
  }

  async function createRow(tableId: string, title: string): Promise<string> {
    const response = await scene.api.post(`/tables/${tableId}/rows`, { data: { title } });
    expect(response.status).toBe(201);
    return response.body.data.id;
  }

  async function createHook(path: string, events: string[], tableIds?: string[] | null) {
    const response = await scene.api.post('/webhooks', { name: 'narrowed', url: scene.receiver.url(path), events, ...(tableIds === undefined ? {} : { table_ids: tableIds }) });
    expect(response.status).toBe(201);
    return response.body.data as { id: string; table_ids: string[] | null };
  }

  it('gives a webhook narrowed to table A the row.created events of A and none of B', async () => {
    const [tableA, tableB] = [await createTable(scene.api, 'A'), await createTable(scene.api, 'B')];
    const narrowed = uniquePath('narrowed');
    const everyTable = uniquePath('every-table');
    const hook = await createHook(narrowed, ['row.created'], [tableA]);
    expect(hook.table_ids).toEqual([tableA]);
    await createHook(everyTable, ['row.created']);

    const rowB = await createRow(tableB, 'of B');
    const firstA = await createRow(tableA, 'first of A');
    // B's event reached the dispatcher: the webhook of every table got it.
    await eventually(() => expect(payloadsAt(everyTable).map((p) => p.data.row_id)).toEqual(expect.arrayContaining([rowB, firstA])), { timeoutMs: 20_000 });
    const laterA = await createRow(tableA, 'later of A');
    await eventually(() => expect(payloadsAt(narrowed).map((p) => p.data.row_id)).toContain(laterA), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);

    expect(payloadsAt(narrowed).map((p) => p.data.row_id).sort()).toEqual([firstA, laterA].sort());
    expect(payloadsAt(narrowed).every((p) => p.event === 'row.created' && p.data.table_id === tableA)).toBe(true);
    expect(await deliveriesOf(scene.api, hook.id)).toHaveLength(2);
  });

  it('gives a webhook narrowed to table A the table.updated events of A only', async () => {
    const [tableA, tableB] = [await createTable(scene.api, 'A'), await createTable(scene.api, 'B')];
    const narrowed = uniquePath('narrowed-table');
    const everyTable = uniquePath('every-table-table');
    await createHook(narrowed, ['table.updated'], [tableA]);
    await createHook(everyTable, ['table.updated']);

    expect((await scene.api.patch(`/tables/${tableB}`, { name: `B renamed ${randomUUID().slice(0, 8)}` })).status).toBe(200);
    expect((await scene.api.patch(`/tables/${tableA}`, { name: `A renamed ${randomUUID().slice(0, 8)}` })).status).toBe(200);
    await eventually(() => expect(payloadsAt(everyTable).map((p) => p.data.table_id).sort()).toEqual([tableA, tableB].sort()), { timeoutMs: 20_000 });
    await eventually(() => expect(payloadsAt(narrowed)).toHaveLength(1), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);

    expect(payloadsAt(narrowed)).toHaveLength(1);
    expect(payloadsAt(narrowed)[0]).toMatchObject({ event: 'table.updated', data: { table_id: tableA } });
  });

  it('shows table_ids in every view, and an update to null gives the webhook every table again', async () => {
    const [tableA, tableB] = [await createTable(scene.api, 'A'), await createTable(scene.api, 'B')];
    const path = uniquePath('cleared');
    const plain = await createHook(uniquePath('plain'), ['row.created']);
    expect(plain.table_ids).toBeNull();
    const hook = await createHook(path, ['row.created'], [tableA.toUpperCase(), tableB]);
    // Kept as Postgres writes uuids.
    expect(hook.table_ids).toEqual([tableA, tableB]);
    expect((await scene.api.get(`/webhooks/${hook.id}`)).body.data.table_ids).toEqual([tableA, tableB]);
    const listed = (await scene.api.get('/webhooks?limit=100')).body.data as Array<{ id: string; table_ids: string[] | null }>;
    expect(listed.find((w) => w.id === hook.id)?.table_ids).toEqual([tableA, tableB]);
    expect(listed.find((w) => w.id === plain.id)?.table_ids).toBeNull();

    const narrowedToA = await scene.api.patch(`/webhooks/${hook.id}`, { table_ids: [tableA] });
    expect(narrowedToA.status).toBe(200);
    expect(narrowedToA.body.data.table_ids).toEqual([tableA]);
    // Changing something else leaves the tables as they are.
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { name: 'renamed' })).body.data.table_ids).toEqual([tableA]);

    const cleared = await scene.api.patch(`/webhooks/${hook.id}`, { table_ids: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.table_ids).toBeNull();
    expect((await scene.api.get(`/webhooks/${hook.id}`)).body.data.table_ids).toBeNull();
    const rowB = await createRow(tableB, 'of B, after the filter was cleared');
    await eventually(() => expect(payloadsAt(path).map((p) => p.data.row_id)).toEqual([rowB]), { timeoutMs: 20_000 });
  });

  it('refuses an unknown table or another organization’s alike, naming the entry, and changes nothing', async () => {
    const [tableA, tableB] = [await createTable(scene.api, 'A'), await createTable(scene.api, 'B')];
    const foreign = await createTable(scene.other, 'Foreign');
    const hook = await createHook(uniquePath('refused'), ['row.created'], [tableA]);
    const before = (await scene.api.get('/webhooks?limit=100')).body.pagination.total;

    const answers = [];
    for (const stranger of [foreign, randomUUID()]) {
      const created = await scene.api.post('/webhooks', { name: 'x', url: scene.receiver.url(uniquePath('never')), events: ['row.created'], table_ids: [tableA, stranger] });
      const updated = await scene.api.patch(`/webhooks/${hook.id}`, { table_ids: [tableB, stranger], name: 'never applied' });
      for (const response of [created, updated]) {
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field: 'table_ids[1]' } } });
        answers.push(response.body);
      }
    }
    // The other organization's table is refused in the very words of a table that does not exist.
    expect(new Set(answers.map((body) => JSON.stringify(body))).size).toBe(1);
    expect((await scene.api.get('/webhooks?limit=100')).body.pagination.total).toBe(before);
    expect((await scene.api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ name: 'narrowed', table_ids: [tableA] });
  });

  it.each([
    ['an empty list', [], 'must not be empty'],
    ['an id that is not a UUID', ['not-a-uuid'], 'UUID'],
    ['a repeated id', ['SAME'], 'repeat'],
    ['more than 100 ids', Array.from({ length: 101 }, () => randomUUID()), 'at most 100'],
    ['a string instead of a list', 'x', ''],
  ])('refuses %s with a 400 naming table_ids', async (_what, value, reason) => {
    const id = randomUUID();
    const tableIds = Array.isArray(value) && value[0] === 'SAME' ? [id, id.toUpperCase()] : value;
    const created = await scene.api.post('/webhooks', { name: 'x', url: scene.receiver.url(uniquePath('never')), events: ['row.created'], table_ids: tableIds });
    const hook = await createHook(uniquePath('invalid'), ['row.created']);
    const updated = await scene.api.patch(`/webhooks/${hook.id}`, { table_ids: tableIds });
    for (const response of [created, updated]) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field: 'table_ids' } } });
      expect(response.body.error.details.reason).toContain(reason);
    }
  });

  it('recovers the missed events of the webhook’s tables only', async () => {
    const [tableA, tableB] = [await createTable(scene.api, 'A'), await createTable(scene.api, 'B')];
    const path = uniquePath('recover-narrowed');
    const everyTable = uniquePath('recover-every-table');
    const hook = await createHook(path, ['row.created'], [tableA]);
    await createHook(everyTable, ['row.created']);
    const since = new Date().toISOString();
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    const rowB = await createRow(tableB, 'missed, of B');
    const rowA = await createRow(tableA, 'missed, of A');
    // Both are in the event store: the webhook of every table got them.
    await eventually(() => expect(payloadsAt(everyTable).map((p) => p.data.row_id).sort()).toEqual([rowA, rowB].sort()), { timeoutMs: 20_000 });
    expect((await scene.api.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(200);

    expect((await recoverAndWait(scene.api, hook.id, { since })).queued).toBe(1);
    await eventually(() => expect(payloadsAt(path).map((p) => p.data.row_id)).toEqual([rowA]), { timeoutMs: 20_000 });
    await sleep(QUIET_MS);
    expect(payloadsAt(path).map((p) => p.data.row_id)).toEqual([rowA]);
  });
});
