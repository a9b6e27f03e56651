import { Client } from 'pg';
import { admin, apiClient, createTestOrg, eventually, testDatabaseUrl, TestOrg } from '@platform/testing';

describe('authentication and scopes', () => {
  let org: TestOrg;

  beforeAll(async () => {
    org = await createTestOrg({ plan: 0 });
  });

  it('answers a request with a valid key, the scheme in any case (HTTP schemes are case-insensitive)', async () => {
    const res = await apiClient(org.key).get('/calendar/availability');
    expect(res.status).toBe(200);
    for (const scheme of ['bearer', 'BEARER']) {
      expect((await apiClient().get('/calendar/availability', { headers: { authorization: `${scheme} ${org.key}` } })).status).toBe(200);
    }
  });

  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a key', 'Bearer'],
    ['Bearer with two words', 'Bearer a b'],
    ['a key of the wrong shape', 'Bearer not-a-key'],
    ['a well-formed key nobody issued', `Bearer sk_${'A'.repeat(43)}`],
  ])('answers 401 UNAUTHORIZED for %s', async (_case, authorization) => {
    const res = await apiClient().get('/calendar/availability', { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers 403 FORBIDDEN when the key lacks the route scope, and allows what it has', async () => {
    const readOnly = await admin('key', 'create', '--org', org.orgId, '--scopes', 'calendar:read');
    const client = apiClient(readOnly.key);
    expect((await client.get('/calendar/availability')).status).toBe(200);
    const denied = await client.put('/calendar/availability', { schedules: [] });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('calendar:write') } });
    expect((await client.get('/tables')).status).toBe(403);
  });

  it('stops accepting a key once it is revoked', async () => {
    const issued = await admin('key', 'create', '--org', org.orgId);
    const client = apiClient(issued.key);
    expect((await client.get('/calendar/availability')).status).toBe(200);
    const revoked = await admin('key', 'revoke', '--key-id', issued.id);
    expect(revoked).toEqual({ id: issued.id, revoked_at: expect.any(String) });
    await eventually(async () => expect((await client.get('/calendar/availability')).status).toBe(401), { timeoutMs: 5_000 });
  });

  it('keeps keys hashed at rest', async () => {
    const issued = await admin('key', 'create', '--org', org.orgId);
    expect(issued.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM gateway.api_keys WHERE key_hash::text LIKE $1 OR key_prefix = $2`, [`%${issued.key}%`, issued.key]);
      expect(rows[0].n).toBe(0);
      const stored = await db.query(`SELECT length(key_hash) AS len FROM gateway.api_keys WHERE id = $1`, [issued.id]);
      expect(stored.rows[0].len).toBe(32);
    } finally {
      await db.end();
    }
  });
});
