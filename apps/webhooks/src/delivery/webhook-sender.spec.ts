import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@contracts';
import { Webhook } from 'standardwebhooks';
import { TargetResolver } from '../targets/target-resolver';
import { PinnedAgents } from './pinned-agents';
import { RESPONSE_BODY_LIMIT, WebhookSender } from './webhook-sender';

interface Received {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let port: number;
const received: Received[] = [];
let respond: (path: string, answer: (status: number, body?: string, headers?: Record<string, string>) => void) => void;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      respond(req.url ?? '/', (status, body = '', headers = {}) => res.writeHead(status, headers).end(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  respond = (_path, answer) => answer(200, 'ok');
});

const agents = new PinnedAgents(2_000);
afterAll(() => agents.close());

/** `hooks.example.test` resolves, through a lookup the test controls, to the loopback receiver. */
const permissive = new WebhookSender(new TargetResolver(true, async () => [{ address: '127.0.0.1', family: 4 }]), agents);
const secret = 'whsec_5Y0n0F0pWc1H1aVqvF2Qm5b8Jx3YdK7uTqS9rL1nX0E=';
const previous = 'whsec_K2h0cG8vL3dlYmhvb2tzLnRlc3QvcHJldmlvdXMtc2VjcmV0IQ==';
const body = JSON.stringify({ id: 'b9d7f1e4-3c2a-4c7e-9f51-0a2b3c4d5e6f', event: 'row.created', data: { name: 'Zoë' } });
const request = (path: string, extra: Partial<Parameters<WebhookSender['send']>[0]> = {}) => ({
  url: `http://hooks.example.test:${port}${path}`,
  secrets: [secret],
  body,
  eventType: 'row.created',
  eventId: 'b9d7f1e4-3c2a-4c7e-9f51-0a2b3c4d5e6f',
  timeoutMs: 2_000,
  responseLimit: 1024,
  ...extra,
});

describe('WebhookSender', () => {
  it('POSTs the exact signed body with every contract header to the checked address, Host kept', async () => {
    const before = Math.floor(Date.now() / 1000);
    const outcome = await permissive.send(request('/hook?x=1'));
    expect(outcome).toMatchObject({ statusCode: 200, success: true });
    expect(outcome.errorMessage).toBeUndefined();
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit.method).toBe('POST');
    expect(hit.url).toBe('/hook?x=1');
    expect(hit.body.toString('utf8')).toBe(body);
    expect(hit.headers.host).toBe(`hooks.example.test:${port}`);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, hit.body, hit.headers['x-webhook-signature'])).toBe(true);
    expect(hit.headers['x-webhook-event']).toBe('row.created');
    expect(hit.headers['x-webhook-id']).toBe('b9d7f1e4-3c2a-4c7e-9f51-0a2b3c4d5e6f');
    expect(hit.headers['x-webhook-delivery']).toBe(outcome.deliveryId);
    const timestamp = Number(hit.headers['x-webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(hit.headers['webhook-id']).toBe('b9d7f1e4-3c2a-4c7e-9f51-0a2b3c4d5e6f');
    expect(hit.headers['webhook-timestamp']).toBe(hit.headers['x-webhook-timestamp']);
    expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(hit.body.toString('utf8'), hit.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('signs with every secret given, the first also in X-Webhook-Signature', async () => {
    await permissive.send(request('/rotating', { secrets: [secret, previous] }));
    const [hit] = received;
    const headers = hit.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(hit.body.toString('utf8'), headers)).toBeTruthy();
    expect(new Webhook(previous).verify(hit.body.toString('utf8'), headers)).toBeTruthy();
    expect(verifyWebhookSignature(secret, hit.body, headers['x-webhook-signature'])).toBe(true);
    expect(verifyWebhookSignature(previous, hit.body, headers['x-webhook-signature'])).toBe(false);
  });

  it('gives every attempt its own delivery id', async () => {
    const first = await permissive.send(request('/a'));
    const second = await permissive.send(request('/a'));
    expect(first.deliveryId).not.toBe(second.deliveryId);
    expect(received.map((hit) => hit.headers['x-webhook-delivery'])).toEqual([first.deliveryId, second.deliveryId]);
  });

  it('counts a non-2xx answer as a failure with its status', async () => {
    respond = (_path, answer) => answer(500, 'boom');
    const outcome = await permissive.send(request('/fail'));
    expect(outcome).toMatchObject({ statusCode: 500, success: false, errorMessage: 'Receiver answered 500' });
  });

  it('does not follow redirects', async () => {
    respond = (path, answer) => (path === '/moved' ? answer(302, '', { location: `/elsewhere` }) : answer(200));
    const outcome = await permissive.send(request('/moved'));
    expect(outcome).toMatchObject({ statusCode: 302, success: false });
    expect(outcome.errorMessage).toMatch(/redirects are not followed/);
    expect(received.map((hit) => hit.url)).toEqual(['/moved']);
  });

  it('keeps the first 4 KiB of the answer when asked', async () => {
    respond = (_path, answer) => answer(200, 'x'.repeat(3 * RESPONSE_BODY_LIMIT));
    const outcome = await permissive.send(request('/big', { responseLimit: RESPONSE_BODY_LIMIT }));
    expect(outcome.responseBody).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
  });

  it('gives up at the deadline with status 0', async () => {
    respond = () => undefined;
    const started = Date.now();
    const outcome = await permissive.send(request('/slow', { timeoutMs: 300 }));
    expect(outcome).toMatchObject({ statusCode: 0, success: false, errorMessage: 'Timed out after 300 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a refused connection with status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await permissive.send(request('/', { url: `http://127.0.0.1:${closedPort}/` }));
    expect(outcome).toMatchObject({ statusCode: 0, success: false });
    expect(outcome.errorMessage).toMatch(/ECONNREFUSED/);
  });

  it('refuses a blocked target without sending anything when private targets are not allowed', async () => {
    const strict = new WebhookSender(new TargetResolver(false, async () => [{ address: '127.0.0.1', family: 4 }]), agents);
    const outcome = await strict.send(request('/hook'));
    expect(outcome).toMatchObject({ statusCode: 0, success: false });
    expect(outcome.errorMessage).toMatch(/^Target refused: hooks\.example\.test is not an allowed target/);
    expect(outcome.errorMessage).not.toContain('127.0.0.1');
    const literal = await strict.send(request('/hook', { url: `http://[::1]:${port}/hook` }));
    expect(literal.errorMessage).toMatch(/^Target refused: ::1 is a loopback address/);
    expect(received).toHaveLength(0);
  });
});
