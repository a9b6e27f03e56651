import { randomUUID } from 'node:crypto';
import { ApiClient, apiClient, createTestOrg } from '@platform/testing';
import { uniqueDomain } from './dns-fixtures';

describe('domains: plan, add, list, get, delete', () => {
  let api: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    api = apiClient((await createTestOrg({ plan: 250 })).key);
    other = apiClient((await createTestOrg({ plan: 0, addons: ['domains'] })).key);
  });

  describe('plan gating', () => {
    it.each([
      ['a plan below 250', { plan: 249 }],
      ['no plan and no add-on', { plan: 0 }],
    ])('refuses every domain endpoint with %s: 403 PLAN_REQUIRED, before validation or lookup', async (_, options) => {
      const poor = apiClient((await createTestOrg(options)).key);
      const id = randomUUID();
      const attempts = [
        poor.get('/domains'),
        poor.post('/domains', { domain: uniqueDomain() }),
        poor.post('/domains', { nonsense: true }),
        poor.get(`/domains/${id}`),
        poor.get('/domains/not-a-uuid'),
        poor.get(`/domains/${id}/verify`),
        poor.delete(`/domains/${id}`),
        poor.get(`/domains/${id}/emails`),
        poor.post(`/domains/${id}/emails`, { local_part: 'a', is_primary: true }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ success: false, error: { code: 'PLAN_REQUIRED' } });
      }
    });

    it('lets the domains add-on in on any plan', async () => {
      const response = await other.get('/domains');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: [], pagination: { page: 1, limit: 50, total: 0 } });
    });

    it('still checks the scope first', async () => {
      const readOnly = apiClient((await createTestOrg({ plan: 500, scopes: 'domains:read' })).key);
      const response = await readOnly.post('/domains', { domain: uniqueDomain() });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    });
  });

  describe('POST /domains', () => {
    it('answers 201 with the pending domain and the four records to configure', async () => {
      const name = uniqueDomain();
      const response = await api.post('/domains', { domain: name.toUpperCase() });
      expect(response.status).toBe(201);
      const { data } = response.body;
      expect(response.body.success).toBe(true);
      expect(data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        domain: name,
        status: 'pending',
        type: 'imported',
        dns_configured: false,
        mx_verified: false,
        spf_verified: false,
        dkim_verified: false,
        verified_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        last_checked_at: null,
        issues: [],
        dns_records: [
          { type: 'MX', name, value: 'mx.mail.example.net', priority: 10 },
          { type: 'TXT', name, value: 'v=spf1 include:spf.mail.example.net ~all' },
          { type: 'CNAME', name: expect.stringMatching(new RegExp(`^k[0-9a-f]{12}\\._domainkey\\.${name.replace(/\./g, '\\.')}$`)), value: expect.stringMatching(/^k[0-9a-f]{12}\.dkim\.mail\.example\.net$/) },
          { type: 'CNAME', name: expect.stringMatching(/^k[0-9a-f]{12}\._domainkey\./), value: expect.stringMatching(/\.dkim\.mail\.example\.net$/) },
        ],
      });
      const [, , dkim1, dkim2] = data.dns_records;
      expect(dkim1.name).not.toBe(dkim2.name);
      expect(dkim1.value.split('.')[0]).toBe(dkim1.name.split('.')[0]);
    });

    it('gives every domain its own DKIM selectors', async () => {
      const [a, b] = await Promise.all([api.post('/domains', { domain: uniqueDomain() }), api.post('/domains', { domain: uniqueDomain() })]);
      const selectors = (body: { data: { dns_records: { name: string }[] } }) => body.data.dns_records.slice(2).map((r) => r.name.split('.')[0]);
      expect(selectors(a.body).some((s: string) => selectors(b.body).includes(s))).toBe(false);
    });

    it.each([
      ['a trailing dot', 'example-domain.test.'],
      ['an IPv4 address', '192.0.2.10'],
      ['a single label', 'localhost'],
      ['an empty string', ''],
      ['a space', 'exa mple.test'],
      ['an underscore', 'bad_label.example.test'],
      ['a label over 63 characters', `${'a'.repeat(64)}.test`],
    ])('refuses %s as VALIDATION_ERROR on domain', async (_, domain) => {
      const response = await api.post('/domains', { domain });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'domain' } });
    });

    it('refuses a wrong type, a missing field and an unknown property', async () => {
      for (const body of [{ domain: 42 }, {}, { domain: uniqueDomain(), extra: 1 }]) {
        const response = await api.post('/domains', body);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('refuses a domain already connected here or by another organization: CONFLICT', async () => {
      const name = uniqueDomain();
      expect((await api.post('/domains', { domain: name })).status).toBe(201);
      for (const response of [await api.post('/domains', { domain: name }), await other.post('/domains', { domain: name.toUpperCase() })]) {
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('CONFLICT');
      }
    });

    it('lets only one of many simultaneous adds of one name win', async () => {
      const name = uniqueDomain();
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : api).post('/domains', { domain: name })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400 && r.body.error.code === 'CONFLICT')).toHaveLength(5);
    });
  });

  describe('GET /domains and GET /domains/{id}', () => {
    it('pages the organization\'s own domains, without records in the list', async () => {
      const org = apiClient((await createTestOrg({ plan: 300 })).key);
      const names = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
      for (const domain of names) expect((await org.post('/domains', { domain })).status).toBe(201);
      const first = await org.get('/domains?page=1&limit=2');
      expect(first.status).toBe(200);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
      expect(first.body.data.map((d: { domain: string }) => d.domain)).toEqual(names.slice(0, 2));
      expect(first.body.data[0].dns_records).toBeUndefined();
      expect(first.body.data[0]).toMatchObject({ status: 'pending', type: 'imported', mx_verified: false });
      const second = await org.get('/domains?page=2&limit=2');
      expect(second.body.data.map((d: { domain: string }) => d.domain)).toEqual(names.slice(2));
    });

    it.each(['limit=0', 'limit=101', 'page=0', 'page=abc', 'foo=1'])('refuses the query %s', async (query) => {
      const response = await api.get(`/domains?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('reads one domain again with its records', async () => {
      const created = await api.post('/domains', { domain: uniqueDomain() });
      const response = await api.get(`/domains/${created.body.data.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: created.body.data });
    });
  });

  describe('another organization\'s domain and unknown ids', () => {
    it('is NOT_FOUND everywhere, and stays untouched', async () => {
      const created = await api.post('/domains', { domain: uniqueDomain() });
      const id = created.body.data.id;
      for (const response of [
        await other.get(`/domains/${id}`),
        await other.get(`/domains/${id}/verify`),
        await other.delete(`/domains/${id}`),
        await other.get(`/domains/${id}/emails`),
        await other.post(`/domains/${id}/emails`, { local_part: 'x' }),
        await api.get(`/domains/${randomUUID()}`),
        await api.get('/domains/12345'),
        await api.delete('/domains/not-an-id'),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
      expect((await api.get(`/domains/${id}`)).body.data).toEqual(created.body.data);
    });
  });

  describe('DELETE /domains/{id}', () => {
    it('answers success with a message, then the domain is gone and its name free again', async () => {
      const name = uniqueDomain();
      const created = await api.post('/domains', { domain: name });
      const response = await api.delete(`/domains/${created.body.data.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: expect.any(String) });
      expect((await api.get(`/domains/${created.body.data.id}`)).status).toBe(404);
      expect((await api.delete(`/domains/${created.body.data.id}`)).status).toBe(404);
      expect((await other.post('/domains', { domain: name })).status).toBe(201);
    });
  });
});
