import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase } from '@platform/persistence';
import { ADMIN_ENTRY, ManagedProcess, PROCESSES, ProcessName, processSpec, runMigrations, Supervisor } from '@platform/runner';
import { ApiClient, apiClient } from '../api-client';
import { freePort } from '../free-port';
import { testStackEnv } from '../stack-env';
import { REPO_ROOT } from '../stack-state';
import { PrivatePostgres, startPrivatePostgres } from './private-postgres';
import { PrivateNats, startPrivateNats } from '../private-nats';
import { PrivateRedis, startPrivateRedis } from './private-redis';
import { PrivateS3, startPrivateS3 } from '../private-s3';

const run = promisify(execFile);

export interface Readiness {
  ready: boolean;
  status: number;
  /** The readiness body (its checks), or the connection error when nothing answered. */
  body: string;
}

export interface IsolatedOrg {
  orgId: string;
  key: string;
  api: ApiClient;
}

export interface IsolatedStack {
  label: string;
  env: Record<string, string>;
  gatewayUrl: string;
  logFile: string;
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  nats: PrivateNats;
  s3: PrivateS3;
  process(name: ProcessName): ManagedProcess;
  /** SIGKILL, and waits until the process is gone. */
  kill(name: ProcessName): Promise<void>;
  /** Starts the app again on the same ports and waits until it is ready. */
  restart(name: ProcessName, timeoutMs?: number): Promise<void>;
  readiness(name: ProcessName): Promise<Readiness>;
  admin<T = any>(...args: string[]): Promise<T>;
  createOrg(options?: { plan?: number; scopes?: string }): Promise<IsolatedOrg>;
  stop(): Promise<void>;
}

/**
 * The whole system from dist/ against a PostgreSQL, a Redis and a NATS of its own, so that a test may
 * kill, restart and starve them without touching the machine's shared servers or other test runs.
 */
export async function startIsolatedStack(label: string, overrides: Record<string, string> = {}): Promise<IsolatedStack> {
  const [postgres, redis, nats, s3] = await Promise.all([startPrivatePostgres(), startPrivateRedis(), startPrivateNats(), startPrivateS3()]);
  const port = await freePort();
  const env: Record<string, string> = {
    ...testStackEnv(process.env),
    ...s3.env,
    DATABASE_URL: postgres.url('platform_reliability'),
    REDIS_URL: redis.url,
    NATS_URL: nats.url,
    PORT: String(port),
    // The load comes from one key: the limit is not what is under test here.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // A request to a service that is down fails after this long: it bounds what a client waits.
    NATS_REQUEST_TIMEOUT_MS: '3000',
    ...overrides,
  };
  const dir = resolve(REPO_ROOT, 'dist/test-stack');
  mkdirSync(dir, { recursive: true });
  const logFile = resolve(dir, `reliability-${label}-${process.pid}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const supervisor = new Supervisor({ root: REPO_ROOT, env, output: (line) => log.write(`${line}\n`) });
  const destroyServers = () => Promise.all([postgres.destroy(), redis.destroy(), nats.destroy(), s3.destroy()]);

  const healthPorts = new Map<string, number>();
  try {
    await ensureDatabase(env.DATABASE_URL);
    await runMigrations(REPO_ROOT, env);
    for (const spec of PROCESSES) healthPorts.set(spec.name, await freePort());
    const started = PROCESSES.map((spec) => supervisor.start(spec, healthPorts.get(spec.name)));
    // CI runs these beside the e2e suite on two cores, each stack on a Postgres of its own: on a slow day the processes
    // took over 90 s to come up. The specs give their start 180 s or more.
    await Promise.all(started.map((managed) => managed.waitReady(Number(process.env.TEST_STACK_READY_MS) || 170_000)));
  } catch (error) {
    await supervisor.stopAll(5_000);
    await destroyServers();
    log.end();
    throw new Error(`isolated stack ${label} did not start: ${(error as Error).message}; see ${logFile}`);
  }

  const processOf = (name: ProcessName) => {
    const managed = supervisor.get(name);
    if (!managed) throw new Error(`${name} was never started`);
    return managed;
  };
  const admin = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, [resolve(REPO_ROOT, ADMIN_ENTRY), ...args], { cwd: REPO_ROOT, env, timeout: 30_000 });
    return JSON.parse(stdout) as T;
  };
  const gatewayUrl = `http://127.0.0.1:${port}/v1`;

  return {
    label,
    env,
    gatewayUrl,
    logFile,
    postgres,
    redis,
    nats,
    s3,
    process: processOf,
    kill: async (name) => {
      const managed = processOf(name);
      managed.kill('SIGKILL');
      await managed.exited;
    },
    restart: async (name, timeoutMs = 60_000) => {
      await supervisor.start(processSpec(name), healthPorts.get(name)).waitReady(timeoutMs);
    },
    readiness: async (name) => {
      const url = `http://127.0.0.1:${processOf(name).healthPort}/health/ready`;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
        return { ready: res.ok, status: res.status, body: await res.text() };
      } catch (error) {
        return { ready: false, status: 0, body: (error as Error).message };
      }
    },
    admin,
    createOrg: async (options = {}) => {
      const org = await admin<{ id: string }>('org', 'create', '--name', `Reliability ${label}`, '--plan', String(options.plan ?? 250));
      const key = await admin<{ key: string }>('key', 'create', '--org', org.id, '--scopes', options.scopes ?? '*');
      return { orgId: org.id, key: key.key, api: apiClient(key.key, gatewayUrl) };
    },
    stop: async () => {
      await supervisor.stopAll(10_000);
      await destroyServers();
      log.end();
    },
  };
}
