import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { allRows, ApiError, createApiClient, rowFilter, typedTable, verifyWebhook, WebhookVerificationError } from '@org-data-platform/sdk';
import { createTestOrg, eventually, gatewayUrl, sdkClient, TestOrg } from '@platform/testing';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A receiver on loopback that keeps what arrives, as a customer's endpoint would. */
async function startReceiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The system as an integrator meets it: through @org-data-platform/sdk, typed end to end. */
describe('the SDK against the running system', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
  });

  it('creates a table and rows with typed bodies and reads typed answers', async () => {
    const api = sdkClient(org.key);
    const created = await api.POST('/tables', {
      body: { name: `SDK ${Date.now()}`, description: 'typed', icon: null, fields: [{ name: 'Email', field_type: 'email', is_required: true }, { name: 'Score', field_type: 'number' }] },
    });
    if (created.error) throw new ApiError(created.response.status, created.error);
    expect(created.response.status).toBe(201);
    const table = created.data.data;
    expect(table).toEqual(expect.objectContaining({ description: 'typed', icon: null, row_count: 0 }));
    expect(table.fields.map((field) => field.slug)).toEqual(['email', 'score']);

    const row = await api.POST('/tables/{table_id}/rows', { params: { path: { table_id: table.id } }, body: { data: { email: 'ada@example.com', score: 3 } } });
    expect(row.data?.data).toEqual(expect.objectContaining({ data: { email: 'ada@example.com', score: 3 } }));

    const updated = await api.PATCH('/tables/{table_id}/rows/{row_id}', {
      params: { path: { table_id: table.id, row_id: row.data?.data.id ?? '' } },
      body: { data: { score: 4 } },
    });
    expect(updated.data?.data.data.score).toBe(4);
  });

  it('with throwOnError, answers the success body or throws an ApiError with the code, message and details', async () => {
    const api = createApiClient({ baseUrl: gatewayUrl(), apiKey: org.key, throwOnError: true });
    const created = await api.POST('/tables', { body: { name: `Unwrapped ${Date.now()}`, fields: [{ name: 'Title', field_type: 'text' }] } });
    expect(created.success).toBe(true);
    expect(created.data.fields[0].slug).toBe('title');
    const listed = await api.GET('/tables', { params: { query: { limit: 100 } } });
    expect(listed.data.map((table) => table.id)).toContain(created.data.id);
    expect(listed.pagination.total).toBeGreaterThanOrEqual(1);

    const refused = api.POST('/tables', { body: { name: '', fields: [] } });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { field: 'name' } });
    await expect(api.GET('/tables/{table_id}', { params: { path: { table_id: '00000000-0000-4000-8000-000000000000' } } })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: expect.any(String),
    });
  });

  it('reads and writes typed rows of a table the caller describes, filtered with the typed builder', async () => {
    type Deal = { name: string; amount: number; stage: string; tags?: string[] | null };
    const api = sdkClient(org.key);
    const created = await api.POST('/tables', {
      body: {
        name: `Deals ${Date.now()}`,
        fields: [
          { name: 'Name', field_type: 'text', is_required: true },
          { name: 'Amount', field_type: 'number' },
          { name: 'Stage', field_type: 'text' },
          { name: 'Tags', field_type: 'multi_select', options: { values: ['vip', 'new'] } },
        ],
      },
    });
    if (created.error) throw new ApiError(created.response.status, created.error);
    const deals = typedTable<Deal>(api, created.data.data.id);
    const small = await deals.create({ name: 'Small', amount: 50, stage: 'open' });
    const big = await deals.create({ name: 'Big', amount: 500, stage: 'won', tags: ['vip'] });
    await deals.create({ name: 'Mid', amount: 200, stage: 'open', tags: ['new'] });
    expect(small.data.amount).toBe(50);
    expect((await deals.update(small.id, { stage: 'won' })).data).toEqual({ name: 'Small', amount: 50, stage: 'won', tags: null });
    expect((await deals.get(big.id)).data.tags).toEqual(['vip']);

    const won = await deals.list({ stage: 'won', amount: { gte: 100 } });
    expect(won.rows.map((row) => row.data.name)).toEqual(['Big']);
    expect(won.pagination.total).toBe(1);
    const names: string[] = [];
    for await (const deal of deals.all({ or: [{ tags: { contains: 'new' } }, { amount: { lt: 100 } }] }, { sort: 'amount' })) names.push(deal.data.name);
    expect(names).toEqual(['Small', 'Mid']);
    expect(rowFilter<Deal>({ name: { starts_with: 'B' } })).toBe('{"name":{"starts_with":"B"}}');

    await deals.delete(small.id);
    await expect(deals.get(small.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(deals.create({ name: '', amount: 1, stage: 'x' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('answers the error body typed, with the status, for a refused request', async () => {
    const api = sdkClient(org.key);
    const refused = await api.POST('/tables', { body: { name: 'Bad', fields: [{ name: 'A', field_type: 'text' }, { name: 'B', field_type: 'text', is_required: 'yes' as never }] } });
    expect(refused.data).toBeUndefined();
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error).toEqual(expect.objectContaining({ code: 'VALIDATION_ERROR', details: { field: 'fields[1].is_required', reason: expect.any(String) } }));

    const missing = await api.GET('/tables/{table_id}', { params: { path: { table_id: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('NOT_FOUND');

    const anonymous = await sdkClient(undefined).GET('/tables');
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error?.error.code).toBe('UNAUTHORIZED');
  });

  it('walks every row of a filtered list across pages with allRows', async () => {
    const api = sdkClient(org.key);
    const created = await api.POST('/tables', { body: { name: `Walk ${Date.now()}`, fields: [{ name: 'N', field_type: 'number' }, { name: 'Kind', field_type: 'text' }] } });
    const tableId = created.data?.data.id ?? '';
    const rows = Array.from({ length: 23 }, (_, n) => ({ data: { n, kind: n % 3 === 0 ? 'three' : 'other' } }));
    const batch = await api.POST('/tables/{table_id}/rows/batch', { params: { path: { table_id: tableId } }, body: { rows } });
    expect(batch.response.status).toBe(201);

    const seen: number[] = [];
    for await (const row of allRows(api, tableId, { limit: 5, sort: 'n', order: 'asc' })) seen.push(Number(row.data.n));
    expect(seen).toEqual(rows.map((row) => row.data.n));

    const threes: number[] = [];
    for await (const row of allRows(api, tableId, { limit: 2, sort: 'n', order: 'desc', filter: JSON.stringify({ kind: 'three' }) })) threes.push(Number(row.data.n));
    expect(threes).toEqual([21, 18, 15, 12, 9, 6, 3, 0]);

    await expect(async () => {
      for await (const row of allRows(api, tableId, { filter: JSON.stringify({ nope: 1 }) })) expect(row).toBeUndefined();
    }).rejects.toMatchObject({ name: 'ApiError', status: 400, body: { success: false, error: { code: 'VALIDATION_ERROR' } } });
  });

  it('receives a webhook that verifyWebhook accepts with the secret from the create answer, and refuses otherwise', async () => {
    const receiver = await startReceiver();
    try {
      const api = sdkClient(org.key);
      const hook = await api.POST('/webhooks', { body: { name: 'SDK receiver', url: receiver.url, events: ['table.created'] } });
      if (hook.error) throw new ApiError(hook.response.status, hook.error);
      const secret = hook.data.data.secret;

      const test = await api.POST('/webhooks/{webhook_id}/test', { params: { path: { webhook_id: hook.data.data.id } } });
      expect(test.data?.data.status_code).toBe(204);
      const table = await api.POST('/tables', { body: { name: `Hooked ${Date.now()}`, fields: [{ name: 'A', field_type: 'text' }] } });

      const delivered = await eventually(() => {
        const found = receiver.deliveries.find((delivery) => delivery.headers['x-webhook-event'] === 'table.created');
        expect(found).toBeDefined();
        return found as Delivery;
      });
      const payload = verifyWebhook(secret, delivered.body, delivered.headers);
      expect(payload.event).toBe('table.created');
      if (payload.event !== 'table.created') return;
      expect(payload.data.table_id).toBe(table.data?.data.id);
      expect(verifyWebhook(secret, receiver.deliveries[0].body, receiver.deliveries[0].headers).event).toBe('webhook.test');

      const { 'webhook-signature': _standard, ...onlyHex } = delivered.headers;
      expect(verifyWebhook(secret, delivered.body, onlyHex).event).toBe('table.created');
      expect(() => verifyWebhook(secret, Buffer.concat([delivered.body, Buffer.from(' ')]), delivered.headers)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(secret, Buffer.concat([delivered.body, Buffer.from(' ')]), onlyHex)).toThrow(WebhookVerificationError);
    } finally {
      await receiver.close();
    }
  });
});
