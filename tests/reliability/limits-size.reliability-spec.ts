import { randomUUID } from 'node:crypto';
import { ROW_DATA_MAX_BYTES } from '@contracts';
import { eventually, Receiver } from '@platform/testing';
import { IsolatedOrg, IsolatedStack, startIsolatedStack } from '@platform/testing/reliability';
import { connect } from 'nats';
import { Client } from 'pg';

/**
 * Issue 28, rows at the size limit: a row's data up to 512 KiB of JSON works everywhere (create, read,
 * update, a list of 100 such rows, its events with previous_row_data and their deliveries), one over it
 * is a VALIDATION_ERROR naming data, a body under 1 MiB is never a 500, an event that cannot be
 * published holds back no other, and no process dies on the way. NATS runs with its default 1 MiB
 * max_payload, as in CI and production.
 */

const BODY_LIMIT_BYTES = 1024 * 1024;
/** Six long_text fields of up to 100,000 characters hold a row of up to about 600 KB. */
const FIELD_COUNT = 6;
const MAX_LONG_TEXT = 100_000;

/** Data for the table's fields whose JSON is exactly `bytes` long (ASCII, so characters are bytes). */
function rowOfSize(slugs: string[], bytes: number, fill = 'x'): Record<string, string> {
  const empty = JSON.stringify(Object.fromEntries(slugs.map((slug) => [slug, '']))).length;
  let left = bytes - empty;
  if (left < 0 || left > slugs.length * MAX_LONG_TEXT) throw new Error(`no row of ${bytes} bytes fits these fields`);
  const data: Record<string, string> = {};
  for (const slug of slugs) {
    const length = Math.min(left, MAX_LONG_TEXT);
    data[slug] = fill.repeat(length);
    left -= length;
  }
  return data;
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('limits: rows up to 512 KiB everywhere, nothing over it, no event held back, no process down', () => {
  let stack: IsolatedStack;
  let receiver: Receiver;
  let org: IsolatedOrg;
  let other: IsolatedOrg;
  let tableId: string;
  let otherTableId: string;
  let slugs: string[];
  const pids = new Map<string, number>();
  const SERVICES = ['gateway', 'tables', 'tables-relay', 'webhooks', 'webhooks-worker'] as const;

  beforeAll(async () => {
    // A page of 100 rows of 512 KiB is 50 MiB from Postgres to the client: on a machine shared with other
    // builds it takes longer than the stack's usual 3 s bound on a service request.
    stack = await startIsolatedStack('limits-size', { NATS_REQUEST_TIMEOUT_MS: '30000' });
    receiver = await Receiver.start();
    org = await stack.createOrg();
    other = await stack.createOrg();
    const fields = Array.from({ length: FIELD_COUNT }, (_, i) => ({ name: `Part ${i + 1}`, field_type: 'long_text' }));
    const table = await org.api.post('/tables', { name: 'Large rows', fields });
    expect(table.status).toBe(201);
    tableId = table.body.data.id;
    slugs = table.body.data.fields.map((field: { slug: string }) => field.slug);
    const small = await other.api.post('/tables', { name: 'Small rows', fields: [{ name: 'N', field_type: 'number' }] });
    otherTableId = small.body.data.id;
    for (const [who, path, events] of [
      [org, '/large', ['row.created', 'row.updated']],
      [other, '/other', ['row.created']],
    ] as const) {
      const hook = await who.api.post('/webhooks', { name: path, url: receiver.url(path), events });
      expect(hook.status).toBe(201);
    }
    for (const name of SERVICES) pids.set(name, stack.process(name).pid);
  }, 400_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  }, 60_000);

  const largest = () => rowOfSize(slugs, ROW_DATA_MAX_BYTES);
  const deliveredTo = (path: string, kind: string, rowId: string) =>
    receiver.at(path).map((request) => JSON.parse(request.body.toString('utf8'))).filter((event) => event.event === kind && event.data.row_id === rowId);

  it('creates, reads and updates a row of exactly 512 KiB, and delivers its row.updated with previous_row_data (over 1 MiB as an event)', async () => {
    const data = largest();
    expect(jsonBytes(data)).toBe(ROW_DATA_MAX_BYTES);
    const created = await org.api.post(`/tables/${tableId}/rows`, { data });
    expect(created.status).toBe(201);
    const rowId = created.body.data.id;
    expect(created.body.data.data).toEqual(data);
    const read = await org.api.get(`/tables/${tableId}/rows/${rowId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.data).toEqual(data);
    const changed = { ...data, [slugs[0]]: 'y'.repeat(data[slugs[0]].length) };
    const updated = await org.api.patch(`/tables/${tableId}/rows/${rowId}`, { data: { [slugs[0]]: changed[slugs[0]] } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.data).toEqual(changed);

    const [event] = await eventually(
      () => {
        const found = deliveredTo('/large', 'row.updated', rowId);
        expect(found).toHaveLength(1);
        return found;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(event.data.row_data).toEqual(changed);
    expect(event.data.previous_row_data).toEqual(data);
    expect(jsonBytes(event)).toBeGreaterThan(BODY_LIMIT_BYTES);
  }, 120_000);

  it('answers a list of 100 rows of 512 KiB (50 MiB) in one page', async () => {
    const data = largest();
    const ids: string[] = [];
    const writing = Date.now();
    // Four writers at a time: the point is the list, not the write rate.
    for (let start = 0; start < 100; start += 4) {
      const batch = await Promise.all(Array.from({ length: Math.min(4, 100 - start) }, () => org.api.post(`/tables/${tableId}/rows`, { data })));
      for (const res of batch) {
        expect(res.status).toBe(201);
        ids.push(res.body.data.id);
      }
    }
    const wroteMs = Date.now() - writing;
    const listing = Date.now();
    const page = await org.api.get(`/tables/${tableId}/rows?limit=100&sort=created_at&order=desc`);
    const listMs = Date.now() - listing;
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(100);
    expect(page.body.data.map((row: { id: string }) => row.id).sort()).toEqual([...ids].sort());
    for (const row of page.body.data) expect(row.data).toEqual(data);
    process.stdout.write(`${JSON.stringify({ test: 'limits-size list of 100 rows of 512 KiB', createsMs: wroteMs, listMs, listBytes: jsonBytes(page.body) })}\n`);
  }, 300_000);

  it('refuses a row over 512 KiB (about 600 KB) as a VALIDATION_ERROR naming data, on create and in a batch', async () => {
    const tooLarge = rowOfSize(slugs, 600_000);
    const created = await org.api.post(`/tables/${tableId}/rows`, { data: tooLarge });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data' } });
    const oneByteOver = await org.api.post(`/tables/${tableId}/rows`, { data: rowOfSize(slugs, ROW_DATA_MAX_BYTES + 1) });
    expect(oneByteOver.status).toBe(400);
    expect(oneByteOver.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data' } });
    const batch = await org.api.post(`/tables/${tableId}/rows/batch`, { rows: [{ data: { [slugs[0]]: 'a' } }, { data: tooLarge }] });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'rows[1].data' } });
  }, 60_000);

  it('refuses a PATCH that would grow a row past 512 KiB and leaves the row as it was, with no event', async () => {
    const data = rowOfSize(slugs, 400 * 1024);
    const created = await org.api.post(`/tables/${tableId}/rows`, { data });
    expect(created.status).toBe(201);
    const rowId = created.body.data.id;
    // The last two fields, short or empty in a 400 KiB row, filled to 100,000 characters each: about 600 KB.
    const growth = { [slugs[4]]: 'g'.repeat(MAX_LONG_TEXT), [slugs[5]]: 'g'.repeat(MAX_LONG_TEXT) };
    expect(jsonBytes({ ...data, ...growth })).toBeGreaterThan(ROW_DATA_MAX_BYTES);
    const grown = await org.api.patch(`/tables/${tableId}/rows/${rowId}`, { data: growth });
    expect(grown.status).toBe(400);
    expect(grown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data' } });
    const read = await org.api.get(`/tables/${tableId}/rows/${rowId}`);
    expect(read.body.data.data).toEqual(data);
    // A PATCH that grows the row up to the limit is committed, and answers 200 with the whole row.
    const upTo = rowOfSize(slugs, ROW_DATA_MAX_BYTES, 'z');
    const allowed = await org.api.patch(`/tables/${tableId}/rows/${rowId}`, { data: upTo });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.data).toEqual(upTo);
    await eventually(() => expect(deliveredTo('/large', 'row.updated', rowId)).toHaveLength(1), { timeoutMs: 30_000, intervalMs: 250 });
    expect(deliveredTo('/large', 'row.updated', rowId)[0].data.row_data).toEqual(upTo);
  }, 90_000);

  it('takes a body just under the 1 MiB limit (two rows of 500 KB in one batch) and refuses one over it as BAD_REQUEST', async () => {
    const half = rowOfSize(slugs, 500_000);
    const body = { rows: [{ data: half }, { data: half }] };
    expect(jsonBytes(body)).toBeGreaterThan(1_000_000);
    expect(jsonBytes(body)).toBeLessThan(BODY_LIMIT_BYTES);
    const batch = await org.api.request('POST', `/tables/${tableId}/rows/batch`, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(batch.status).toBe(201);
    expect(batch.body.data).toHaveLength(2);
    const over = { rows: [{ data: half }, { data: half }, { data: rowOfSize(slugs, 60_000) }] };
    expect(jsonBytes(over)).toBeGreaterThan(BODY_LIMIT_BYTES);
    const refused = await org.api.request('POST', `/tables/${tableId}/rows/batch`, { rawBody: JSON.stringify(over), headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('BAD_REQUEST');
  }, 60_000);

  it('sets aside an event that cannot be published: later events of every organization still go, readiness and metrics show it, an operator retries it', async () => {
    // An outbox entry whose subject no stream takes: JetStream refuses it for ever, as it refused an oversized one.
    const poisonId = randomUUID();
    const subject = `unrouted.${poisonId}`;
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`INSERT INTO tables.outbox (id, subject, payload) VALUES ($1, $2, $3)`, [poisonId, subject, JSON.stringify({ id: poisonId })]);
    } finally {
      await db.end();
    }
    const started = Date.now();
    const rows: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const row = await other.api.post(`/tables/${otherTableId}/rows`, { data: { n: i } });
      expect(row.status).toBe(201);
      rows.push(row.body.data.id as string);
    }
    await eventually(() => expect(rows.filter((id) => deliveredTo('/other', 'row.created', id).length === 0)).toEqual([]), { timeoutMs: 20_000, intervalMs: 200 });
    const heldBackMs = Date.now() - started;

    const parked = await eventually(
      async () => {
        const list = await stack.admin<{ parked: Array<{ id: string; subject: string; error: string }> }>('outbox', 'parked', '--schema', 'tables');
        expect(list.parked.map((entry) => entry.id)).toEqual([poisonId]);
        return list.parked[0];
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
    expect(parked.subject).toBe(subject);
    expect(parked.error).not.toBe('');
    await eventually(
      async () => {
        const readiness = await stack.readiness('tables-relay');
        expect(readiness.ready).toBe(true);
        expect(JSON.parse(readiness.body).info.outbox).toMatchObject({ status: 'up', schema: 'tables', parked: 1 });
        const metrics = await (await fetch(`http://127.0.0.1:${stack.process('tables-relay').healthPort}/metrics`)).text();
        expect(metrics).toMatch(/^outbox_parked_events\{schema="tables"\} 1$/m);
        expect(metrics).toMatch(/^outbox_parked_total\{schema="tables"\} 1$/m);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );

    // The operator gives the subject a stream, then puts the event back: it is published.
    const nc = await connect({ servers: stack.nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: 'UNROUTED', subjects: ['unrouted.>'] });
      const retried = await stack.admin<{ retried: string[] }>('outbox', 'retry', '--schema', 'tables');
      expect(retried.retried).toEqual([poisonId]);
      await eventually(async () => expect((await jsm.streams.info('UNROUTED')).state.messages).toBe(1), { timeoutMs: 20_000, intervalMs: 250 });
      expect((await stack.admin<{ parked: unknown[] }>('outbox', 'parked', '--schema', 'tables')).parked).toEqual([]);
    } finally {
      await nc.close();
    }
    process.stdout.write(`${JSON.stringify({ test: 'limits-size poisoned event', otherOrgEventsDeliveredWithinMs: heldBackMs })}\n`);
  }, 120_000);

  it('kept every process alive throughout: none crashed or was restarted', () => {
    for (const name of SERVICES) {
      expect(stack.process(name).running).toBe(true);
      expect(stack.process(name).pid).toBe(pids.get(name));
    }
  });
});
