import Redis from 'ioredis';

/** A record the loopback DNS server serves; names and hosts are written without the root dot. */
export type TestDnsRecord =
  | { type: 'MX'; exchange: string; priority?: number }
  | { type: 'TXT'; value: string | string[] }
  | { type: 'CNAME'; target: string };

/** Names under this label are never answered, so that a lookup of them times out. */
export const BLACKHOLE_SUFFIX = 'blackhole.test';

const KEY_PREFIX = 'test-dns:';
const QUERIES_PREFIX = 'test-dns-queries:';
// Records outlive any test run comfortably, and then go away by themselves.
const RECORD_TTL_SECONDS = 3_600;

/**
 * Test processes and the DNS server (in the global-setup process) meet in Redis. Both read REDIS_URL
 * from the same inherited environment, with the default the test stack uses.
 */
export function testDnsRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

export function normalizeDnsName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export function testDnsKey(name: string): string {
  return KEY_PREFIX + normalizeDnsName(name);
}

/** Where the server counts the questions it got for a name, whatever their type. */
export function testDnsQueriesKey(name: string): string {
  return QUERIES_PREFIX + normalizeDnsName(name);
}

export function isBlackholed(name: string): boolean {
  const normalized = normalizeDnsName(name);
  return normalized === BLACKHOLE_SUFFIX || normalized.endsWith(`.${BLACKHOLE_SUFFIX}`);
}

export const TEST_DNS_RECORD_TTL_SECONDS = RECORD_TTL_SECONDS;

async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(testDnsRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    return await work(redis);
  } finally {
    await redis.quit();
  }
}

/** Replaces every record of `name`; an empty list makes the name exist with no records (NODATA). */
export async function setTestDnsRecords(name: string, records: TestDnsRecord[]): Promise<void> {
  await withRedis((redis) => redis.set(testDnsKey(name), JSON.stringify(records), 'EX', RECORD_TTL_SECONDS));
}

/** Removes `name`, so that the server answers NXDOMAIN for it. */
export async function clearTestDnsRecords(name: string): Promise<void> {
  await withRedis((redis) => redis.del(testDnsKey(name)));
}

/** How many questions (of any type, answered or not) the server got for `name` so far. */
export async function testDnsQueryCount(name: string): Promise<number> {
  return withRedis(async (redis) => Number((await redis.get(testDnsQueriesKey(name))) ?? 0));
}
