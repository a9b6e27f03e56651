import { randomBytes } from 'node:crypto';
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
      const pid = parseInt(datname.slice(TEST_DATABASE_PREFIX.length), 10); // platform_test_<pid>[_<n>]
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await db.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await db.end();
  }
}

/** Drops the run's database and the scratch databases made beside it. */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!name.startsWith(TEST_DATABASE_PREFIX)) return;
  const db = new Client({ connectionString: adminUrl(databaseUrl) });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_')`, [name]);
    for (const { datname } of rows as { datname: string }[]) await db.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
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

/**
 * A new empty database of this run's own (dropped with the run's others), for a process that must not
 * share the stack's data: it is named after the run's database, so abandoned ones are found and dropped.
 */
export async function createScratchDatabase(stackDatabaseUrl: string): Promise<string> {
  const url = new URL(stackDatabaseUrl);
  // A jest worker runs many files in one process, each with its own copy of this module: the pid alone repeats.
  url.pathname = `${url.pathname}_${process.pid}x${randomBytes(4).toString('hex')}`;
  const db = new Client({ connectionString: adminUrl(stackDatabaseUrl) });
  await db.connect();
  try {
    await db.query(`CREATE DATABASE "${url.pathname.slice(1)}"`);
  } finally {
    await db.end();
  }
  return url.toString();
}
