import { ApiClient, apiClient, createTestOrg } from '@platform/testing';

/** JSON text sent as is: JSON.stringify cannot write 1e999, and the escapes must reach the gateway unchanged. */
const raw = (text: string) => ({ rawBody: text, headers: { 'content-type': 'application/json' } });

describe('values JSON can carry but no field can store, and bodies that are not JSON in UTF-8', () => {
  let api: ApiClient;
  let tableId: string;

  const validation = (field: string, reason: string) => ({
    success: false,
    error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: { field, reason: expect.stringContaining(reason) } },
  });
  const rowCount = async () => (await api.get(`/tables/${tableId}/rows`)).body.pagination.total;

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    const table = await api.post('/tables', {
      name: 'Unstorable',
      fields: [
        { name: 'Title', field_type: 'text' },
        { name: 'Amount', field_type: 'number' },
        { name: 'Constructor', field_type: 'text' },
      ],
    });
    expect(table.status).toBe(201);
    tableId = table.body.data.id;
  });

  it.each([
    ['a NUL in a row value', '{"data": {"title": "a\\u0000b"}}', 'data.title', 'NUL'],
    ['a lone high surrogate in a row value', '{"data": {"title": "x\\ud800"}}', 'data.title', 'surrogate'],
    ['a lone low surrogate in a row value', '{"data": {"title": "\\udc00"}}', 'data.title', 'surrogate'],
    ['a number that overflows to infinity', '{"data": {"amount": 1e999}}', 'data.amount', 'finite'],
    ['a negative number that overflows', '{"data": {"title": "ok", "amount": -1e400}}', 'data.amount', 'finite'],
  ])('refuses %s naming the field, and stores nothing', async (_case, body, field, reason) => {
    const res = await api.request('POST', `/tables/${tableId}/rows`, raw(body));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validation(field, reason));
    expect(await rowCount()).toBe(0);
  });

  it('refuses a NUL in a table name, a field name and a description, and in a webhook name', async () => {
    const tables = await api.request('POST', '/tables', raw('{"name": "T\\u0000", "fields": []}'));
    expect(tables.body).toEqual(validation('name', 'NUL'));
    const fields = await api.request('POST', '/tables', raw('{"name": "T", "fields": [{"name": "ok", "field_type": "text"}, {"name": "F\\u0000", "field_type": "text"}]}'));
    expect(fields.body).toEqual(validation('fields[1].name', 'NUL'));
    const description = await api.request('PATCH', `/tables/${tableId}`, raw('{"description": "\\u0000"}'));
    expect(description.body).toEqual(validation('description', 'NUL'));
    const webhook = await api.request('POST', '/webhooks', raw('{"name": "W\\u0000", "url": "http://127.0.0.1:1/x", "events": ["row.created"]}'));
    expect(webhook.body).toEqual(validation('name', 'NUL'));
    expect([tables.status, fields.status, description.status, webhook.status]).toEqual([400, 400, 400, 400]);
    expect((await api.get('/tables')).body.pagination.total).toBe(1);
    expect((await api.get(`/tables/${tableId}`)).body.data.description).toBeNull();
    expect((await api.get('/webhooks')).body.pagination.total).toBe(0);
  });

  it('refuses a NUL or a lone surrogate in a filter operand, naming its path', async () => {
    const nul = await api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent('{"or": [{"title": {"contains": "a\\u0000"}}]}')}`);
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual(validation('filter.or[0].title.contains', 'NUL'));
    const surrogate = await api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent('{"title": {"starts_with": "\\ud800"}}')}`);
    expect(surrogate.body).toEqual(validation('filter.title.starts_with', 'surrogate'));
  });

  it('stores escaped surrogate pairs and other control characters as sent', async () => {
    const res = await api.request('POST', `/tables/${tableId}/rows`, raw('{"data": {"title": "\\ud83d\\ude00 tab\\t bell\\u0007"}}'));
    expect(res.status).toBe(201);
    expect(res.body.data.data.title).toBe('😀 tab\t bell\u0007');
    await api.delete(`/tables/${tableId}/rows/${res.body.data.id}`);
  });

  it.each(['application/json; charset=latin1', 'application/json; charset=utf-16', 'text/plain', 'application/jsonx'])('refuses a body declared %s with a BAD_REQUEST', async (contentType) => {
    const res = await api.request('POST', `/tables/${tableId}/rows`, { rawBody: '{"data": {"title": "x"}}', headers: { 'content-type': contentType } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    expect(await rowCount()).toBe(0);
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    const body = Buffer.concat([Buffer.from('{"data": {"title": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')]);
    const res = await api.request('POST', `/tables/${tableId}/rows`, { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(await rowCount()).toBe(0);
  });

  it('takes application/json with charset utf-8 in any case', async () => {
    const res = await api.request('POST', `/tables/${tableId}/rows`, { rawBody: '{"data": {"title": "utf"}}', headers: { 'content-type': 'Application/JSON; Charset=UTF-8' } });
    expect(res.status).toBe(201);
    await api.delete(`/tables/${tableId}/rows/${res.body.data.id}`);
  });

  it('keeps the value of a field whose slug is an Object member name', async () => {
    const created = await api.post(`/tables/${tableId}/rows`, { data: { constructor: 'kept', title: 't' } });
    expect(created.status).toBe(201);
    expect(created.body.data.data.constructor).toBe('kept');
    const updated = await api.patch(`/tables/${tableId}/rows/${created.body.data.id}`, { data: { constructor: 'changed' } });
    expect(updated.body.data.data.constructor).toBe('changed');
    await api.delete(`/tables/${tableId}/rows/${created.body.data.id}`);
  });

  it.each([
    ['{"event_type": {"constructor": 1}}', 'event_type.constructor'],
    ['{"constructor": {"name": 1}}', 'constructor'],
    ['{"toString": 1}', 'toString'],
    ['{"event_type": [{"constructor": {}}]}', 'event_type[0].constructor'],
    ['{"event_type": {"valueOf": "x"}}', 'event_type.valueOf'],
  ])('answers the webhook test endpoint a VALIDATION_ERROR for %s, never a 500', async (body, field) => {
    const webhook = await api.post('/webhooks', { name: 'Hook', url: 'http://127.0.0.1:9/never', events: ['row.created'] });
    expect(webhook.status).toBe(201);
    const res = await api.request('POST', `/webhooks/${webhook.body.data.id}/test`, raw(body));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validation(field, 'not a known property'));
    await api.delete(`/webhooks/${webhook.body.data.id}`);
  });
});
