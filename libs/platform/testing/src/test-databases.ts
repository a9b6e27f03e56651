import Redis from 'ioredis';
import { Client } from 'pg';
import { TEST_DATABASE_PREFIX } from './stack-env';

function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Drops test databases left behind by runs whose process is gone (a run that was killed cannot clean up). */
export async function dropAbandonedTestDatabases(databaseUrl: string): Promise<void> {
  const db = new Client({ connectionString: adminUrl(databaseUrl) });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${TEST_DATABASE_PREFIX}%`]);
    for (const { datname } of rows as { datname: string }[]) {
      const pid = Number(datname.slice(TEST_DATABASE_PREFIX.length));
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await db.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await db.end();
  }
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!name.startsWith(TEST_DATABASE_PREFIX)) return;
  const db = new Client({ connectionString: adminUrl(databaseUrl) });
  await db.connect();
  try {
    await db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await db.end();
  }
}

/** Empties the run's own Redis database (never database 0, which a developer's `npm start` uses). */
export async function flushTestRedis(redisUrl: string): Promise<void> {
  const index = Number(new URL(redisUrl).pathname.slice(1) || 0);
  if (!index) return;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}
