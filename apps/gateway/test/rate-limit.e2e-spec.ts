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

describe('the per-address limit for requests without a valid key', () => {
  const LIMIT = 5;
  const gateways: ManagedProcess[] = [];

  async function gatewayWith(overrides: Record<string, string>): Promise<string> {
    const port = await freePort();
    gateways.push(await startProcess('gateway', { PORT: String(port), RATE_LIMIT_PER_MINUTE: String(LIMIT), ...overrides }));
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Unknown keys, each request claiming another client address. */
  async function guessesFrom(baseUrl: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const forged = `203.0.113.${(Date.now() + i) % 250}, 198.51.100.${i}`;
      const res = await fetch(`${baseUrl}/tables`, { headers: { authorization: `Bearer guess_${i}`, 'x-forwarded-for': forged } });
      statuses.push(res.status);
    }
    return statuses;
  }

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  });

  it('ignores X-Forwarded-For from a peer outside TRUSTED_PROXIES (default none): forged addresses share the real one\'s limit', async () => {
    const statuses = await guessesFrom(await gatewayWith({}), LIMIT + 3);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  });

  it('believes X-Forwarded-For from a trusted proxy: each client address gets its own limit', async () => {
    const statuses = await guessesFrom(await gatewayWith({ TRUSTED_PROXIES: '10.0.0.0/8,127.0.0.1/32' }), LIMIT + 3);
    expect(statuses).toEqual(Array(LIMIT + 3).fill(401));
  });
});
