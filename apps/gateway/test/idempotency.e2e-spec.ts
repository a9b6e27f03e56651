import { Client } from 'pg';
import type { ManagedProcess } from '@platform/runner';
import { admin, apiClient, createTestOrg, freePort, startProcess, testDatabaseUrl } from '@platform/testing';

function keyed(key: string) {
  return { headers: { 'idempotency-key': key } };
}

let serial = 0;
function newKey(): string {
  serial += 1;
  return `key ${process.pid}-${Date.now()}-${serial}`;
}

describe('Idempotency-Key on POST', () => {
  it('answers a repeat with the stored status and body, runs it once, and refuses the key for another body', async () => {
    const org = await createTestOrg();
    const api = apiClient(org.key);
    const key = newKey();
    const body = { name: `Idem ${key}`, fields: [{ name: 'Title', field_type: 'text' }] };
    const first = await api.post('/tables', body, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api.post('/tables', body, keyed(key));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await api.get('/tables')).body.pagination.total).toBe(1);

    const other = await api.post('/tables', { ...body, name: 'Another' }, keyed(key));
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('CONFLICT');
    // The same key on another route is another request too.
    const elsewhere = await api.post(`/tables/${first.body.data.id}/rows`, { data: { title: 'x' } }, keyed(key));
    expect(elsewhere.body.error.code).toBe('CONFLICT');
    expect((await api.get('/tables')).body.pagination.total).toBe(1);

    // Keys belong to an organization: another one's identical request runs.
    const stranger = apiClient((await createTestOrg()).key);
    const theirs = await stranger.post('/tables', body, keyed(key));
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.id).not.toBe(first.body.data.id);
  });

  it('stores only successful answers, so a refused request can be corrected under the same key', async () => {
    const api = apiClient((await createTestOrg()).key);
    const key = newKey();
    const refused = await api.post('/tables', { name: 'Bad', fields: [{ name: 'X', field_type: 'nope' }] }, keyed(key));
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    const corrected = await api.post('/tables', { name: `Good ${key}`, fields: [{ name: 'X', field_type: 'text' }] }, keyed(key));
    expect(corrected.status).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses keys that are empty, too long or not printable', async () => {
    const api = apiClient((await createTestOrg()).key);
    for (const bad of ['', 'k'.repeat(256), 'tab\there']) {
      const res = await api.post('/tables', { name: 'T', fields: [] }, keyed(bad));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'Idempotency-Key' } });
    }
    expect((await api.get('/tables')).body.pagination.total).toBe(0);
    expect((await api.post('/tables', { name: `Max ${newKey()}`, fields: [] }, keyed('k'.repeat(255)))).status).toBe(201);
  });

  it('writes once when identical requests race: one runs, the others replay it or are told it is in progress', async () => {
    const api = apiClient((await createTestOrg()).key);
    const { data: table } = (await api.post('/tables', { name: `Race ${newKey()}`, fields: [{ name: 'N', field_type: 'number' }] })).body;
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.post(`/tables/${table.id}/rows/batch`, { rows: [{ data: { n: 1 } }, { data: { n: 2 } }] }, keyed(key))));
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((res) => res.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const res of created) expect(res.body).toEqual(created[0].body);
    for (const res of refused) expect(res.body.error.code).toBe('CONFLICT');
    expect((await api.get(`/tables/${table.id}`)).body.data.row_count).toBe(2);
    const late = await api.post(`/tables/${table.id}/rows/batch`, { rows: [{ data: { n: 1 } }, { data: { n: 2 } }] }, keyed(key));
    expect(late.headers['idempotent-replayed']).toBe('true');
    expect(late.body).toEqual(created[0].body);
  });

  it('keeps an answer that holds a secret sealed: the database never sees the secret, and only the API key that asked reads it back', async () => {
    const org = await createTestOrg();
    const api = apiClient(org.key);
    const key = newKey();
    const body = { name: `Sealed ${key}`, url: 'https://receiver.example.com/hook', events: ['row.created'] };
    const created = await api.post('/webhooks', body, keyed(key));
    expect(created.status).toBe(201);
    const secret = created.body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query<{ response: string }>('SELECT response FROM gateway.idempotency_keys WHERE organization_id = $1 AND key = $2', [org.orgId, key]);
      expect(rows).toHaveLength(1);
      expect(rows[0].response).not.toContain(secret);
      expect(rows[0].response).not.toContain('whsec_');
      expect(rows[0].response).not.toContain(created.body.data.id);
    } finally {
      await db.end();
    }

    const replay = await api.post('/webhooks', body, keyed(key));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(created.body);

    // Another key of the same organization does not get the answer (nor run the request again).
    const other = await admin<{ key: string }>('key', 'create', '--org', org.orgId, '--scopes', '*');
    const stranger = await apiClient(other.key).post('/webhooks', body, keyed(key));
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.code).toBe('CONFLICT');
    expect(JSON.stringify(stranger.body)).not.toContain(secret);
    expect((await api.get('/webhooks')).body.pagination.total).toBe(1);
  });

  describe('across gateway restarts', () => {
    let gateway: ManagedProcess | undefined;
    afterAll(async () => {
      await gateway?.stop();
    });

    it('replays an answer stored by a gateway that has died since', async () => {
      const org = await createTestOrg();
      const key = newKey();
      const body = { name: `Restart ${key}`, fields: [] };
      let port = await freePort();
      gateway = await startProcess('gateway', { PORT: String(port) });
      const first = await apiClient(org.key, `http://127.0.0.1:${port}/v1`).post('/tables', body, keyed(key));
      expect(first.status).toBe(201);
      gateway.kill('SIGKILL');
      await gateway.exited;

      port = await freePort();
      gateway = await startProcess('gateway', { PORT: String(port) });
      const replay = await apiClient(org.key, `http://127.0.0.1:${port}/v1`).post('/tables', body, keyed(key));
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
    }, 240_000);
  });
});
