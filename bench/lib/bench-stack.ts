import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase } from '@platform/persistence';
import { ADMIN_ENTRY, ManagedProcess, PROCESSES, ProcessName, processSpec, runMigrations, Supervisor } from '@platform/runner';
import { freePort, PrivateNats, productionRunSecrets, startPrivateNats, startPrivateS3 } from '@platform/testing';
import { startPrivateRedis } from '@platform/testing/reliability';
import { Client } from 'pg';

const run = promisify(execFile);
export const REPO_ROOT = resolve(__dirname, '../../..');

export interface BenchOrg {
  orgId: string;
  key: string;
}

export interface BenchStack {
  env: Record<string, string>;
  gatewayUrl: string;
  databaseUrl: string;
  logFile: string;
  nats: PrivateNats;
  process(name: ProcessName): ManagedProcess;
  /** Every process of the system now running (an extra worker as `webhooks-worker-2`), the NATS, Redis and S3 servers. */
  pids(): Record<string, number | undefined>;
  /** Stops one of the system's processes (SIGTERM, graceful). */
  stop(name: ProcessName): Promise<void>;
  /** Starts it again on its health port and waits until it is ready. */
  start(name: ProcessName): Promise<void>;
  /** One more delivery worker beside the stack's own; answers how to stop it. */
  extraWorker(): Promise<ManagedProcess>;
  createOrg(): Promise<BenchOrg>;
  shutdown(): Promise<void>;
}

/**
 * The whole system from dist/ as production runs it, on a NATS of its own (request-reply subjects are
 * shared by everything on one NATS), a database of its own on the shared Postgres, a Redis of its own
 * (append-only, fsync every second, as production runs it; its CPU is the system's alone), and a rate
 * limit that does not cap the load. `redisUrl` puts it on another Redis instead (its CPU then unread).
 */
export async function startBenchStack(options: { redisUrl?: string; logLevel: string }): Promise<BenchStack> {
  const nats = await startPrivateNats();
  const redis = options.redisUrl ? undefined : await startPrivateRedis({ host: '127.0.0.1', appendfsync: 'everysec' });
  // Imports and exports stream their files through object storage: an S3 server of its own, as the tests run.
  const s3 = await startPrivateS3();
  const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/');
  base.pathname = `/platform_bench_${process.pid}`;
  const databaseUrl = base.toString();
  const port = await freePort();
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel,
    DATABASE_URL: databaseUrl,
    REDIS_URL: options.redisUrl ?? (redis?.url as string),
    NATS_URL: nats.url,
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...productionRunSecrets('bench'),
    ...s3.env,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_QUEUE: `webhook-deliveries-bench-${process.pid}`,
  };
  const dir = resolve(REPO_ROOT, 'dist/bench-stack');
  mkdirSync(dir, { recursive: true });
  const logFile = resolve(dir, `bench-${process.pid}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const supervisor = new Supervisor({ root: REPO_ROOT, env, output: (line) => log.write(`${line}\n`), cpuProfileDir: process.env.BENCH_CPU_PROFILE_DIR });
  const healthPorts = new Map<ProcessName, number>();
  const extras: ManagedProcess[] = [];

  const shutdown = async () => {
    await Promise.all(extras.map((extra) => extra.stop(10_000)));
    await supervisor.stopAll(15_000);
    await nats.destroy();
    await redis?.destroy();
    await s3.destroy();
    await dropDatabase(databaseUrl);
    log.end();
  };

  try {
    await ensureDatabase(databaseUrl);
    await runMigrations(REPO_ROOT, env);
    for (const spec of PROCESSES) healthPorts.set(spec.name, await freePort());
    await Promise.all(PROCESSES.map((spec) => supervisor.start(spec, healthPorts.get(spec.name)).waitReady(120_000)));
  } catch (error) {
    await shutdown();
    throw new Error(`bench stack did not start: ${(error as Error).message}; see ${logFile}`);
  }

  const processOf = (name: ProcessName) => {
    const managed = supervisor.get(name);
    if (!managed) throw new Error(`${name} was never started`);
    return managed;
  };
  const admin = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, [resolve(REPO_ROOT, ADMIN_ENTRY), ...args], { cwd: REPO_ROOT, env, timeout: 60_000 });
    return JSON.parse(stdout) as T;
  };

  return {
    env,
    gatewayUrl: `http://127.0.0.1:${port}/v1`,
    databaseUrl,
    logFile,
    nats,
    process: processOf,
    pids: () => {
      const pids: Record<string, number | undefined> = {};
      for (const spec of PROCESSES) {
        const managed = supervisor.get(spec.name);
        pids[spec.name] = managed?.running ? managed.pid : undefined;
      }
      extras.forEach((extra, i) => (pids[`webhooks-worker-${i + 2}`] = extra.running ? extra.pid : undefined));
      pids['nats-server'] = nats.pid;
      if (redis) pids['redis-server'] = redis.pid;
      pids.s3rver = s3.pid;
      return pids;
    },
    stop: async (name) => {
      await processOf(name).stop(15_000);
    },
    start: async (name) => {
      await supervisor.start(processSpec(name), healthPorts.get(name)).waitReady(60_000);
    },
    extraWorker: async () => {
      const extra = new ManagedProcess({ ...processSpec('webhooks-worker'), name: `webhooks-worker-${extras.length + 2}` }, {
        root: REPO_ROOT,
        env,
        healthPort: await freePort(),
        output: (line) => log.write(`[extra] ${line}\n`),
        cpuProfileDir: process.env.BENCH_CPU_PROFILE_DIR,
      });
      extras.push(extra);
      await extra.waitReady(60_000);
      return extra;
    },
    createOrg: async () => {
      const org = await admin<{ id: string }>('org', 'create', '--name', `Bench ${Date.now()}`, '--plan', '0');
      const key = await admin<{ key: string }>('key', 'create', '--org', org.id, '--scopes', '*');
      return { orgId: org.id, key: key.key };
    },
    shutdown,
  };
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  const adminUrl = new URL(databaseUrl);
  const name = adminUrl.pathname.slice(1);
  adminUrl.pathname = '/postgres';
  const db = new Client({ connectionString: adminUrl.toString() });
  await db.connect();
  try {
    await db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await db.end();
  }
}
