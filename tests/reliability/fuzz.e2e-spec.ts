import fc from 'fast-check';
import { admin, ApiClient, apiClient, createTestOrg, gatewayUrl, openApiPathOf, openApiViolations, Receiver } from '@platform/testing';
import { FuzzRequest, malformedRequests, SeededIds } from './malformed-requests';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 6_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;
// The test stack allows 600 requests a minute per key: enough keys that the fuzzer is rarely rate limited.
const KEYS = 24;
const STATUSES = [200, 201, 400, 401, 403, 404, 429];
/**
 * A request the client could not even send (EPIPE, a reset before any answer) is sent once more on a new
 * connection: the pooled connection it went out on may have been closed by the server after an earlier
 * request's answer said `Connection: close` (a URL past the parser's 16 KiB, a body past 8 MiB). A
 * request that fails twice is a finding.
 */
const UNSENT = /EPIPE|ECONNRESET|other side closed|socket hang up/;
/**
 * Node's HTTP parser takes at most 16 KiB of request line and headers. Past that the request gets its 400
 * and the connection closes at once (the parser can no longer tell where the body ends), so a client
 * still sending a body fails with EPIPE instead of reading it. A request whose URL comes near the limit
 * goes out without its body, which the server could never have read: the answer is still checked.
 */
const URL_WITHOUT_BODY_BYTES = 15 * 1024;

interface Finding {
  request: string;
  defect: string;
  problem: string;
}

/**
 * The domains service re-checks a new domain on its own schedule (a minute after it was added, then
 * later): the time and findings of its last check change without any request, so they are left out.
 */
function withoutScheduledCheck(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => (key === 'last_checked_at' || key === 'issues' ? undefined : value));
}

async function snapshot(api: ApiClient, ids: SeededIds): Promise<unknown> {
  const get = async (path: string) => {
    const res = await api.get(path);
    return { status: res.status, body: path.startsWith('/domains') ? withoutScheduledCheck(res.body) : res.body };
  };
  return {
    tables: await get('/tables?limit=100'),
    table: await get(`/tables/${ids.tableId}`),
    rows: await get(`/tables/${ids.tableId}/rows?limit=100`),
    row: await get(`/tables/${ids.tableId}/rows/${ids.rowId}`),
    webhooks: await get('/webhooks?limit=100'),
    deliveries: await get(`/webhooks/${ids.webhookId}/deliveries?limit=100`),
    domains: await get('/domains?limit=100'),
    domain: await get(`/domains/${ids.domainId}`),
    emails: await get(`/domains/${ids.domainId}/emails?limit=100`),
    availability: await get('/calendar/availability'),
  };
}

function describe_(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : ` body=${String(request.body).slice(0, 120)}`;
  return `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers['content-type'] ?? null)}${body}`;
}

describe('fuzzing every endpoint of openapi.json with malformed requests', () => {
  let api: ApiClient;
  let keys: string[];
  let ids: SeededIds;
  let receiver: Receiver;

  beforeAll(async () => {
    const org = await createTestOrg({ plan: 250 });
    api = apiClient(org.key);
    keys = [org.key, ...(await Promise.all(Array.from({ length: KEYS - 1 }, async () => (await admin('key', 'create', '--org', org.orgId, '--scopes', '*')).key)))];
    receiver = await Receiver.start();
    const table = await api.post('/tables', {
      name: 'Fuzz target',
      fields: [
        { name: 'Title', field_type: 'text' },
        { name: 'N', field_type: 'number', options: { precision: 2 } },
        { name: 'Day', field_type: 'date' },
        { name: 'Status', field_type: 'select', options: { values: ['open', 'closed'] } },
        { name: 'Done', field_type: 'checkbox' },
      ],
    });
    expect(table.status).toBe(201);
    const rows = await Promise.all(
      [1, 2, 3].map((n) => api.post(`/tables/${table.body.data.id}/rows`, { data: { title: `Row ${n}`, n, day: '2024-01-0' + n, status: 'open', done: n % 2 === 0 } })),
    );
    expect(rows.map((r) => r.status)).toEqual([201, 201, 201]);
    const webhook = await api.post('/webhooks', { name: 'Fuzz hook', url: receiver.url('/fuzz'), events: ['row.created'] });
    expect(webhook.status).toBe(201);
    const domain = await api.post('/domains', { domain: `fuzz-${Date.now().toString(36)}-${process.pid}.example.com` });
    expect(domain.status).toBe(201);
    const availability = await api.put('/calendar/availability', { schedules: [{ day_of_week: 2, start_time: '09:00:00', end_time: '17:00:00' }] });
    expect(availability.status).toBe(200);
    ids = { tableId: table.body.data.id, rowId: rows[0].body.data.id, webhookId: webhook.body.data.id, domainId: domain.body.data.id };
    // The keys come from the admin command, a process each: on a loaded machine that took over a minute.
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
  });

  it(`answers ${REQUESTS} malformed requests without a 500, a hang or an undocumented error body, and changes nothing`, async () => {
    // The row.created deliveries of the seeding settle before the snapshot.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await snapshot(api, ids);
    const requests = fc.sample(malformedRequests(ids, keys), { numRuns: REQUESTS, seed: SEED });
    const findings: Finding[] = [];
    const statuses: Record<string, number> = {};
    let next = 0;
    const started = Date.now();

    const send = async (request: FuzzRequest): Promise<void> => {
      const finding = (problem: string) => findings.push({ request: describe_(request), defect: request.defect, problem });
      const sent = request.path.length >= URL_WITHOUT_BODY_BYTES ? undefined : request.body;
      const attempt = () => fetch(gatewayUrl() + request.path, { method: request.method, headers: request.headers, body: sent, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const failure = (error: unknown) => {
        const name = (error as Error).name;
        return name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : `connection failed: ${(error as Error & { cause?: Error }).cause?.message ?? error}`;
      };
      let res: Response;
      try {
        res = await attempt().catch((error: unknown) => (UNSENT.test(failure(error)) ? attempt() : Promise.reject(error)));
      } catch (error) {
        finding(failure(error));
        return;
      }
      const text = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (!STATUSES.includes(res.status)) return void finding(`status ${res.status}: ${text.slice(0, 300)}`);
      if (request.defect && res.status < 300) return void finding(`accepted (${res.status}) a request that must be refused: ${text.slice(0, 300)}`);
      if (res.status < 300) return;
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return void finding(`${res.status} not JSON: ${text.slice(0, 300)}`);
      }
      if (body?.success !== false || typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string') {
        return void finding(`${res.status} not the error body: ${text.slice(0, 300)}`);
      }
      // A method a path does not take has no operation to validate against; the error body check above holds.
      if (openApiPathOf(request.path) && request.defect !== 'unknown route') {
        const violations = openApiViolations(request.method, request.path, { status: res.status, body });
        if (violations.length) finding(violations.join('; '));
      }
    };

    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) await send(requests[next++]);
      }),
    );
    const after = await snapshot(api, ids);
    const seconds = (Date.now() - started) / 1000;
    const kinds: Record<string, number> = {};
    for (const { problem } of findings) {
      const kind = problem.replace(/: .*/s, '').replace(/\d{3} not/, 'not');
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    process.stdout.write(`${JSON.stringify({ test: 'fuzz', seed: SEED, requests: requests.length, seconds, statuses, findings: kinds })}\n`);
    expect(after).toEqual(before);
    expect(statuses['500'] ?? 0).toBe(0);
    // One example of each kind of problem, then the first few in full (reproduce with FUZZ_SEED).
    const examples = Object.keys(kinds).map((kind) => findings.find((f) => f.problem.startsWith(kind.replace(/^not/, '')) || f.problem.includes(kind)));
    expect({ seed: SEED, kinds, examples, first: findings.slice(0, 10) }).toEqual({ seed: SEED, kinds: {}, examples: [], first: [] });
  }, 240_000);
});
