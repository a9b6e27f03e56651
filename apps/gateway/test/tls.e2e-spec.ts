import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { ManagedProcess } from '@platform/runner';
import { createTestOrg, freePort, startProcess, TestOrg } from '@platform/testing';

describe('HTTPS served by the gateway itself', () => {
  let dir: string;
  let gateway: ManagedProcess;
  let port: number;
  let org: TestOrg;
  const insecure = new Agent({ connect: { rejectUnauthorized: false } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    port = await freePort();
    gateway = await startProcess('gateway', { PORT: String(port), TLS_CERT_FILE: join(dir, 'cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') });
    org = await createTestOrg();
  });

  afterAll(async () => {
    await gateway?.stop();
    await insecure.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers over TLS with the same envelope', async () => {
    const anonymous = await request(`https://127.0.0.1:${port}/v1/calendar/availability`, { dispatcher: insecure });
    expect(anonymous.statusCode).toBe(401);
    expect(await anonymous.body.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });

    const authorized = await request(`https://127.0.0.1:${port}/v1/calendar/availability`, {
      dispatcher: insecure,
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(authorized.statusCode).toBe(200);
    expect(await authorized.body.json()).toEqual({ schedules: expect.any(Array), timezone: 'UTC', overrides: [] });
  });

  it('does not speak plain HTTP on that port', async () => {
    await expect(fetch(`http://127.0.0.1:${port}/v1/calendar/availability`, { signal: AbortSignal.timeout(5_000) }).then((res) => res.status)).rejects.toThrow();
  });
});
