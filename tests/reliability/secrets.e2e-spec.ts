import { readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { admin, apiClient, createTestOrg, eventually, REPO_ROOT, STACK_STATE_FILE, testDatabaseUrl, Receiver } from '@platform/testing';
import { Client } from 'pg';

/** The log files the stack of this run writes (its processes and any extra instance started by tests). */
function stackLogs(since: number): string[] {
  const stateFile = process.env.TEST_STACK_STATE ?? STACK_STATE_FILE;
  const dir = resolve(REPO_ROOT, 'dist/test-stack');
  const own = stateFile.replace(/state(-\d+)?\.json$/, (_, pid = '') => `stack${pid}.log`);
  const extras = readdirSync(dir).filter((name) => name.startsWith('extra-')).map((name) => resolve(dir, name)).filter((path) => statSync(path).mtimeMs >= since);
  return [own, ...extras];
}

/** Every row of every table of the application schemas, as text. */
async function databaseText(): Promise<string> {
  const db = new Client({ connectionString: testDatabaseUrl() });
  await db.connect();
  try {
    const { rows: tables } = await db.query(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const dumps: string[] = [];
    for (const { table_schema, table_name } of tables) {
      // Other test files run meanwhile: a table of theirs dropped since the list was read holds nothing any more.
      const read = await db.query(`SELECT t::text AS line FROM "${table_schema}"."${table_name}" t`).catch((error: { code?: string }) => {
        if (error.code === '42P01') return { rows: [] };
        throw error;
      });
      dumps.push(...read.rows.map((row: { line: string }) => `${table_schema}.${table_name}: ${row.line}`));
    }
    expect(tables.length).toBeGreaterThan(3);
    return dumps.join('\n');
  } finally {
    await db.end();
  }
}

/** The whole secret, and its part past what may be shown as a prefix: neither may be found. */
const needles = (secret: string) => [secret, secret.slice(12)];

describe('API keys and webhook secrets at rest, in logs and in responses', () => {
  const started = Date.now();
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('never writes a key or a webhook secret to the logs, a list response or the database in plain text', async () => {
    const org = await createTestOrg();
    const second = await admin('key', 'create', '--org', org.orgId, '--scopes', 'tables:read,webhooks:read,webhooks:write');
    const api = apiClient(org.key);
    const readOnly = apiClient(second.key);

    const created = await api.post('/webhooks', { name: 'Secret holder', url: receiver.url('/secrets'), events: ['row.created'] });
    expect(created.status).toBe(201);
    const secret: string = created.body.data.secret;
    expect(secret).toMatch(/^whsec_/);
    const webhookId = created.body.data.id;
    // Exercise everything that handles the secret or the keys: signing, updates, lists, failures.
    const table = await api.post('/tables', { name: `Secrets ${Date.now()}`, fields: [{ name: 'T', field_type: 'text' }] });
    await api.post(`/tables/${table.body.data.id}/rows`, { data: { t: 'hello' } });
    const tested = await api.post(`/webhooks/${webhookId}/test`, {});
    expect(tested.status).toBe(200);
    // A rotation: the new secret and the previous one both sign from now on.
    const rotated = await api.post(`/webhooks/${webhookId}/rotate-secret`, { expire_previous_in_seconds: 3600 });
    expect(rotated.status).toBe(200);
    const rotatedSecret: string = rotated.body.data.secret;
    await api.post(`/tables/${table.body.data.id}/rows`, { data: { t: 'after rotation' } });
    const responses = [
      await api.get('/webhooks?limit=100'),
      await readOnly.get('/webhooks?limit=100'),
      await api.patch(`/webhooks/${webhookId}`, { name: 'Renamed holder' }),
      await api.get(`/webhooks/${webhookId}`),
      await api.get('/tables?limit=100'),
      await readOnly.post('/tables', { name: 'nope', fields: [] }),
      await apiClient(`${org.key.slice(0, -1)}x`).get('/tables'),
      await apiClient('sk_' + 'A'.repeat(43)).get('/webhooks'),
    ];
    await eventually(async () => {
      const deliveries = await api.get(`/webhooks/${webhookId}/deliveries?limit=100`);
      expect(deliveries.body.data.length).toBeGreaterThanOrEqual(3);
      responses.push(deliveries);
    }, { timeoutMs: 15_000 });
    expect(receiver.at('/secrets').length).toBeGreaterThanOrEqual(3);

    const secrets = [...needles(org.key), ...needles(second.key), ...needles(secret), ...needles(rotatedSecret)];
    const answered = JSON.stringify(responses.map((res) => ({ headers: res.headers, body: res.body })));
    expect(secrets.filter((s) => answered.includes(s))).toEqual([]);

    // Let the processes flush their last lines before reading the logs.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const logs = stackLogs(started);
    const logText = logs.map((path) => readFileSync(path, 'utf8')).join('\n');
    expect(logText).toContain('"app":"webhooks-worker"'); // the right files: this run's stack wrote them
    expect(secrets.filter((s) => logText.includes(s))).toEqual([]);
    expect(logText).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
    expect(logText).not.toMatch(/whsec_[A-Za-z0-9+/_-]{20,}/);

    const stored = await databaseText();
    expect(stored).toContain(webhookId);
    expect(secrets.filter((s) => stored.includes(s))).toEqual([]);
    expect(stored).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
    expect(stored).not.toMatch(/whsec_[A-Za-z0-9+/_-]{20,}/);
  });
});
