import type { ManagedProcess } from '@platform/runner';
import { apiClient, createTestOrg, freePort, startProcess, TestOrg } from '@platform/testing';

describe('rate limit per API key', () => {
  const LIMIT = 5;
  let gateway: ManagedProcess;
  let baseUrl: string;
  let first: TestOrg;
  let second: TestOrg;

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startProcess('gateway', { PORT: String(port), RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    baseUrl = `http://127.0.0.1:${port}/v1`;
    [first, second] = await Promise.all([createTestOrg(), createTestOrg()]);
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('counts down in the headers, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const client = apiClient(first.key, baseUrl);
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await client.get('/calendar/availability');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const limited = await client.get('/calendar/availability');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('leaves another key unaffected', async () => {
    const res = await apiClient(second.key, baseUrl).get('/calendar/availability');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });
});
