import { connect } from 'node:net';
import type { ManagedProcess } from '@platform/runner';
import { createTestOrg, freePort, startProcess } from '@platform/testing';

/** Sends a request's head and part of its body, never the rest; answers what comes back until the socket closes. */
function unfinishedRequest(port: number, key: string): Promise<{ text: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('connect', () => {
      socket.write(`POST /v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
    });
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve({ text, elapsedMs: Date.now() - started }));
    socket.on('error', reject);
  });
}

describe('a client that never finishes its request body', () => {
  let gateway: ManagedProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    gateway = await startProcess('gateway', { PORT: String(port), REQUEST_BODY_TIMEOUT_MS: '2000' });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it('gets a 400 in the error body after REQUEST_BODY_TIMEOUT_MS, and the connection closes', async () => {
    const { key } = await createTestOrg();
    const { text, elapsedMs } = await unfinishedRequest(port, key);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ success: false, error: { code: 'BAD_REQUEST', message: 'The request body was not received in time' } });
    expect(elapsedMs).toBeGreaterThanOrEqual(1_900);
    expect(elapsedMs).toBeLessThan(20_000);
  }, 60_000);

  it('leaves a kept-alive connection of finished requests alone past the deadline', async () => {
    const { key } = await createTestOrg();
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let closed = false;
    socket.on('close', () => (closed = true));
    const get = () =>
      new Promise<string>((resolve) => {
        socket.once('data', (chunk) => resolve(chunk.toString('utf8')));
        socket.write(`GET /v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      });
    expect(await get()).toMatch(/^HTTP\/1\.1 200 /);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(closed).toBe(false);
    expect(await get()).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  }, 60_000);
});
