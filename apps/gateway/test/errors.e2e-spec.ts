import { apiClient, createTestOrg, gatewayUrl, TestOrg } from '@platform/testing';

const errorBody = (code: string) => ({ success: false, error: expect.objectContaining({ code, message: expect.any(String) }) });

describe('envelope and error bodies', () => {
  let org: TestOrg;

  beforeAll(async () => {
    org = await createTestOrg();
  });

  it('answers 404 NOT_FOUND for an unknown route', async () => {
    const res = await apiClient(org.key).get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('NOT_FOUND'));
  });

  it('answers 404 NOT_FOUND for an id that is not a UUID', async () => {
    const res = await apiClient(org.key).get('/tables/not-a-uuid');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('NOT_FOUND'));
  });

  it('answers 400 BAD_REQUEST for a URL with broken percent-encoding', async () => {
    const res = await apiClient(org.key).get('/tables/%FF');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('answers 404 NOT_FOUND for an id far longer than any id', async () => {
    const res = await apiClient(org.key).get(`/tables/${'a'.repeat(5_000)}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('NOT_FOUND'));
  });

  it('answers 400 BAD_REQUEST in the error body for a URL over the HTTP parser limit', async () => {
    const res = await apiClient(org.key).get(`/tables?filter=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const res = await apiClient(org.key).request('PUT', '/calendar/availability', {
      rawBody: '{"schedules": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('answers 400 BAD_REQUEST for a body over 1 MiB', async () => {
    const huge = JSON.stringify({ schedules: [], padding: 'x'.repeat(1024 * 1024) });
    const res = await apiClient(org.key).request('PUT', '/calendar/availability', { rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('lets a client finish sending a body over 1 MiB and read its 400, instead of breaking the connection under it', async () => {
    const huge = JSON.stringify({ pad: 'x'.repeat(4 * 1024 * 1024) });
    for (let i = 0; i < 8; i += 1) {
      const res = await fetch(`${gatewayUrl()}/tables/00000000-0000-4000-8000-000000000000/rows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        body: huge,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(errorBody('BAD_REQUEST'));
    }
  });

  it('answers 400 BAD_REQUEST for a body that is not JSON', async () => {
    const res = await apiClient(org.key).request('PUT', '/calendar/availability', { rawBody: 'schedules=1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('answers 400 BAD_REQUEST for JSON nested too deeply, before parsing it', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await apiClient(org.key).request('PUT', '/calendar/availability', { rawBody: `{"schedules": ${deep}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('BAD_REQUEST'));
  });

  it('answers 400 VALIDATION_ERROR naming an unknown property', async () => {
    const res = await apiClient(org.key).put('/calendar/availability', { schedules: [], surprise: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: { field: 'surprise', reason: expect.any(String) } } });
  });

  it('answers 400 VALIDATION_ERROR for bad paging parameters', async () => {
    for (const query of ['page=0', 'page=abc', 'limit=0', 'limit=101', 'limit=1.5', 'limit=0x10', 'limit=1e1', 'limit=%2B10', 'page=1&page=2']) {
      const res = await apiClient(org.key).get(`/tables?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.field).toBe(query.split('=')[0]);
    }
  });

  it('puts an X-Request-Id on every response and keeps a well-formed one the client sent', async () => {
    const generated = await apiClient(org.key).get('/calendar/availability');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await apiClient(org.key).get('/no-such-thing', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const refused = await apiClient(org.key).get('/calendar/availability', { headers: { 'x-request-id': 'not {a} valid id' } });
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
