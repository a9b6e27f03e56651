import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiClient, createTestOrg, expectMatchesOpenApi, gatewayUrl, openApiDocument, openApiViolations, REPO_ROOT, TestOrg } from '@platform/testing';

/** Every endpoint of the interface, plus the two the contract adds (GET /domains/{id}, GET /calendar/availability). */
const INTERFACE_ENDPOINTS = [
  'GET /tables', 'GET /tables/{table_id}', 'POST /tables', 'PATCH /tables/{table_id}', 'DELETE /tables/{table_id}',
  'GET /tables/{table_id}/rows', 'GET /tables/{table_id}/rows/{row_id}', 'POST /tables/{table_id}/rows',
  'PATCH /tables/{table_id}/rows/{row_id}', 'DELETE /tables/{table_id}/rows/{row_id}',
  'GET /webhooks', 'POST /webhooks', 'PATCH /webhooks/{webhook_id}', 'DELETE /webhooks/{webhook_id}',
  'GET /webhooks/{webhook_id}/deliveries', 'POST /webhooks/{webhook_id}/test',
  'GET /domains', 'POST /domains', 'GET /domains/{domain_id}/verify', 'DELETE /domains/{domain_id}',
  'GET /domains/{domain_id}/emails', 'POST /domains/{domain_id}/emails', 'PUT /calendar/availability',
  'GET /domains/{domain_id}', 'GET /calendar/availability',
];
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe('OpenAPI document', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg({ plan: 250 });
  });

  it('documents every endpoint of the interface with bearer security and the error body', () => {
    const document = openApiDocument();
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`));
    const missing = INTERFACE_ENDPOINTS.filter((endpoint) => {
      const [method, path] = endpoint.split(' ');
      return !documented.includes(`${method} ${shape(path)}`);
    });
    expect(missing).toEqual([]);
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item) as { security?: unknown; responses: Record<string, unknown> }[]) {
        expect(operation.security).toEqual([{ bearer: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429', '500']));
      }
    }
  });

  it('is served, without an API key, at /v1/openapi.json exactly as committed (regenerate: npm run build && node dist/scripts/openapi.js)', async () => {
    const served = await apiClient().get('/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(readFileSync(resolve(REPO_ROOT, 'openapi.json'), 'utf8')));
  });

  it.each(['/', '/v1'])('points from GET %s, without an API key, to the docs, the document and the console', async (path) => {
    const response = await fetch(new URL(path, gatewayUrl()), { signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await response.json()) as Record<string, string>;
    expect(index).toMatchObject({ api: '/v1', docs: '/v1/docs', openapi: '/v1/openapi.json', console: '/console' });
    expect((await fetch(new URL(index.openapi, gatewayUrl()))).status).toBe(200);
    expect((await fetch(new URL(index.console, gatewayUrl()))).status).toBe(200);
  });

  it('has a readable docs page at /v1/docs without an API key, while API routes still need one', async () => {
    const response = await fetch(`${gatewayUrl()}/docs`, { signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/swagger/i);
    const unauthenticated = await apiClient().get('/tables');
    expect(unauthenticated.status).toBe(401);
    expectMatchesOpenApi('GET', '/tables', unauthenticated);
  });

  it('matches live answers: lists, creation, detail, deletion, bare availability and errors', async () => {
    const api = apiClient(org.key);
    const list = await api.get('/tables?page=1&limit=5');
    expect(list.status).toBe(200);
    expectMatchesOpenApi('GET', '/tables?page=1&limit=5', list);

    const created = await api.post('/tables', { name: `OpenAPI ${Date.now()}`, fields: [{ name: 'Title', field_type: 'text' }] });
    expect(created.status).toBe(201);
    expectMatchesOpenApi('POST', '/tables', created);
    const tableId = created.body.data.id as string;

    const detail = await api.get(`/tables/${tableId}`);
    expect(detail.status).toBe(200);
    expectMatchesOpenApi('GET', `/tables/${tableId}`, detail);

    const invalid = await api.post('/tables', { name: 'x', fields: [{ name: 'a', field_type: 'nope' }] });
    expect(invalid.status).toBe(400);
    expectMatchesOpenApi('POST', '/tables', invalid);

    const removed = await api.delete(`/tables/${tableId}`);
    expect(removed.status).toBe(200);
    expectMatchesOpenApi('DELETE', `/tables/${tableId}`, removed);

    const gone = await api.get(`/tables/${tableId}`);
    expect(gone.status).toBe(404);
    expectMatchesOpenApi('GET', `/tables/${tableId}`, gone);

    const availability = await api.put('/calendar/availability', { schedules: [{ day_of_week: 1, start_time: '09:00:00', end_time: '12:00:00' }] });
    expect({ status: availability.status, body: availability.body }).toEqual({ status: 200, body: { schedules: expect.any(Array), timezone: 'UTC', overrides: [] } });
    expectMatchesOpenApi('PUT', '/calendar/availability', availability);

    const webhooks = await api.get('/webhooks');
    expect(webhooks.status).toBe(200);
    expectMatchesOpenApi('GET', '/webhooks', webhooks);
  });

  it('catches an answer that does not match (the validator is live)', () => {
    expect(openApiViolations('GET', '/tables', { status: 200, body: { success: true, data: [] } })).not.toEqual([]);
    expect(openApiViolations('GET', '/tables', { status: 404, body: { success: false, error: { code: 'GONE', message: 'x' } } })).not.toEqual([]);
    expect(openApiViolations('GET', '/no-such-route', { status: 200, body: {} })).not.toEqual([]);
  });
});
