import { randomBytes } from 'node:crypto';
export const TEST_DATABASE_PREFIX = 'platform_test_';
export const TEST_IMPORT_MAX_BYTES = 8 * 1024 * 1024;
/** Export files are removed this long after they are written, so a test sees one expire. */
export const TEST_EXPORT_FILE_TTL_SECONDS = 30;

/** What the test stack runs with: its own database, short retry delays, loopback receivers allowed. */
export function testStackEnv(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  return {
    ...env,
    NODE_ENV: 'test',
    LOG_LEVEL: base.TEST_LOG_LEVEL ?? 'info',
    // A database and a Redis database of this run's own, so that runs side by side never share work.
    DATABASE_URL: base.TEST_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${TEST_DATABASE_PREFIX}${process.pid}`,
    REDIS_URL: base.TEST_REDIS_URL ?? `redis://127.0.0.1:6379/${1 + (process.pid % 15)}`,
    NATS_URL: base.NATS_URL ?? 'nats://127.0.0.1:4222',
    RATE_LIMIT_PER_MINUTE: '600',
    API_KEY_CACHE_TTL_MS: '10000',
    NATS_REQUEST_TIMEOUT_MS: '10000',
    WEBHOOK_RETRY_DELAYS: '200ms,400ms,600ms,800ms,1s',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    DNS_LOOKUP_TIMEOUT_MS: '1000',
    // Small, so a test can declare an import file over it without making one.
    IMPORT_MAX_BYTES: String(TEST_IMPORT_MAX_BYTES),
    EXPORT_FILE_TTL_SECONDS: String(TEST_EXPORT_FILE_TTL_SECONDS),
  };
}

/**
 * What NODE_ENV=production refuses to start without, fresh for each run: its secrets, storage credentials
 * and mail hosts (a bench or cluster run uploads no file and verifies no domain).
 */
export function productionRunSecrets(label: string): Record<string, string> {
  return {
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ROW_CURSOR_KEY: randomBytes(32).toString('hex'),
    S3_ACCESS_KEY_ID: label,
    S3_SECRET_ACCESS_KEY: randomBytes(24).toString('hex'),
    MAIL_MX_HOST: `mx.${label}.example.org`,
    MAIL_SPF_INCLUDE: `spf.${label}.example.org`,
    MAIL_DKIM_DOMAIN: `dkim.${label}.example.org`,
  };
}
