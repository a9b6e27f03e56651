import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ensureDatabase } from '@platform/persistence';
import { ADMIN_ENTRY, PROCESSES, runMigrations, Supervisor } from '@platform/runner';
import { LocalServer } from '../local-server';
import { productionRunSecrets } from '../stack-env';
import { REPO_ROOT } from '../stack-state';
import { PrivatePostgres, startPrivatePostgres } from '../reliability/private-postgres';
import { PrivateRedis, startPrivateRedis } from '../reliability/private-redis';
import { ClusterNetwork, createClusterNetwork, NetworkHost } from './cluster-network';
import { natsUrlOf, startNatsNode } from './nats-node';

const run = promisify(execFile);
const GATEWAY_PORT = 3000;
export const RECEIVER_PORTS = [8081, 8082];
const READY_TIMEOUT_MS = 120_000;

/** One delivery as a receiver saw it. */
export interface ReceivedDelivery {
  receiver: number;
  webhookId: string;
  event: { id: string; event: string; data: Record<string, unknown> };
  at: number;
}

/** A machine of the cluster: its NATS node and one copy of every process of the system. */
export interface ClusterHost {
  network: NetworkHost;
  nats: LocalServer;
  supervisor: Supervisor;
  gatewayUrl: string;
  gatewayHealthUrl: string;
}

export interface ClusterStack {
  network: ClusterNetwork;
  hosts: ClusterHost[];
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  /** What every process runs with (production's settings, the cluster's addresses). */
  env: Record<string, string>;
  logFile: string;
  receiverUrl(port: number, path: string): string;
  deliveries: ReceivedDelivery[];
  admin<T = unknown>(...args: string[]): Promise<T>;
  /** SIGKILL to the host's NATS node and every process on it at once. */
  killHost(name: string): Promise<void>;
  /** Starts its NATS node (with the store it had) and every process again; resolves once all are ready. */
  startHost(name: string): Promise<void>;
  /** SIGTERM to every process of the host (not its NATS node); each is started again once it exited; resolves once all are ready. */
  redeployHost(name: string): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * The production settings of deploy/k8s that the cluster test exercises, with the cluster's own addresses,
 * fresh secrets, and a rate limit that does not cap the load (one key sends it all).
 */
function clusterEnv(network: ClusterNetwork, postgres: PrivatePostgres, redis: PrivateRedis, natsHosts: NetworkHost[], logLevel: string): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    ...inherited,
    NODE_ENV: 'production',
    LOG_LEVEL: logLevel,
    DATABASE_URL: postgres.url('platform'),
    REDIS_URL: redis.url,
    NATS_URL: natsHosts.map(natsUrlOf).join(','),
    JETSTREAM_REPLICAS: String(natsHosts.length),
    PORT: String(GATEWAY_PORT),
    SHUTDOWN_TIMEOUT_MS: '25000',
    NATS_REQUEST_TIMEOUT_MS: '10000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...productionRunSecrets('cluster'),
    // The receivers live on the cluster's private network.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_QUEUE: 'webhook-deliveries',
  };
}

/**
 * Three hosts (network namespaces on one bridge), each running a node of a three-node NATS cluster with
 * JetStream and every process of the system from dist/, through the runner `npm start` uses; Postgres
 * and Redis on a host of their own on the bridge, as managed services would be; the webhook receivers
 * on another. Ctrl-C or SIGTERM removes it all; a run killed outright is cleared by the next.
 */
export async function startClusterStack(options: { hosts?: string[]; logLevel?: string } = {}): Promise<ClusterStack> {
  const hostNames = options.hosts ?? ['h1', 'h2', 'h3'];
  const network = await createClusterNetwork([...hostNames, 'db', 'rx']);
  const dataDir = `/tmp/odp-cluster-${network.subnet.split('.')[2]}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const logDir = resolve(REPO_ROOT, 'dist/cluster');
  mkdirSync(logDir, { recursive: true });
  const logFile = resolve(logDir, `cluster-${process.pid}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  /** Every server of the run; the local ones (NATS, Redis) report an exit they did not expect. */
  const servers: Array<{ destroy(): Promise<void>; expectExit?(): void }> = [];
  const hosts: ClusterHost[] = [];
  let receivers: ChildProcess | undefined;
  let destroyed = false;

  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    // A test harness, not a deployment: everything goes at once, then the servers' directories.
    for (const server of servers) server.expectExit?.();
    await network.destroy();
    await Promise.all(servers.map((server) => server.destroy().catch(() => undefined)));
    rmSync(dataDir, { recursive: true, force: true });
    log.end();
  };
  const interrupted = () => void destroy().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    const db = network.host('db');
    const placement = { host: db.address, clients: network.subnet, launcher: db.launcher, parentDir: dataDir };
    const [postgres, redis] = await Promise.all([startPrivatePostgres({ ...placement, maxConnections: 400 }), startPrivateRedis(placement)]);
    servers.push(postgres, redis);
    const natsHosts = hostNames.map((name) => network.host(name));
    const natsNodes = await Promise.all(natsHosts.map((host) => startNatsNode(host, natsHosts, dataDir)));
    servers.push(...natsNodes);
    const env = clusterEnv(network, postgres, redis, natsHosts, options.logLevel ?? 'warn');
    await ensureDatabase(env.DATABASE_URL);
    await runMigrations(REPO_ROOT, env);

    const deliveries: ReceivedDelivery[] = [];
    const rx = network.host('rx');
    receivers = await startReceivers(rx, deliveries, (line) => log.write(`[rx] ${line}\n`));

    natsHosts.forEach((host, i) => {
      const supervisor = new Supervisor({
        root: REPO_ROOT,
        env,
        launcher: host.launcher,
        healthHost: host.address,
        output: (line) => log.write(`[${host.name}] ${line}\n`),
      });
      hosts.push({
        network: host,
        nats: natsNodes[i],
        supervisor,
        gatewayUrl: `http://${host.address}:${GATEWAY_PORT}/v1`,
        gatewayHealthUrl: `http://${host.address}:${PROCESSES.find((spec) => spec.name === 'gateway')?.healthPort}/health/ready`,
      });
    });
    const hostOf = (name: string) => {
      const host = hosts.find((candidate) => candidate.network.name === name);
      if (!host) throw new Error(`no host ${name}`);
      return host;
    };
    const startServices = (host: ClusterHost) => Promise.all(PROCESSES.map((spec) => host.supervisor.start(spec).waitReady(READY_TIMEOUT_MS)));
    for (const host of hosts) await startServices(host);

    return {
      network,
      hosts,
      postgres,
      redis,
      env,
      logFile,
      deliveries,
      receiverUrl: (port, path) => `http://${rx.address}:${port}${path}`,
      admin: async <T>(...args: string[]) => {
        const { stdout } = await run(process.execPath, [resolve(REPO_ROOT, ADMIN_ENTRY), ...args], { cwd: REPO_ROOT, env, timeout: 60_000 });
        return JSON.parse(stdout) as T;
      },
      killHost: async (name) => {
        const host = hostOf(name);
        host.nats.expectExit();
        await network.killHost(name);
        await Promise.all(host.supervisor.all().map((managed) => managed.exited));
        log.write(`[${name}] killed\n`);
      },
      startHost: async (name) => {
        const host = hostOf(name);
        await host.nats.start();
        await startServices(host);
      },
      redeployHost: async (name) => {
        const host = hostOf(name);
        await Promise.all(
          PROCESSES.map(async (spec) => {
            const code = await host.supervisor.get(spec.name)?.stop(Number(env.SHUTDOWN_TIMEOUT_MS) + 5_000);
            if (code !== 0) throw new Error(`${spec.name} on ${name} exited with ${code} on SIGTERM`);
            await host.supervisor.start(spec).waitReady(READY_TIMEOUT_MS);
          }),
        );
      },
      destroy,
    };
  } catch (error) {
    receivers?.kill('SIGKILL');
    await destroy();
    throw new Error(`cluster did not start: ${(error as Error).message}; see ${logFile}`);
  }
}

/** The receivers' process in their namespace; every delivery it prints lands in `deliveries`. */
async function startReceivers(host: NetworkHost, deliveries: ReceivedDelivery[], output: (line: string) => void): Promise<ChildProcess> {
  const [command, ...launcherArgs] = host.launcher;
  const child = spawn(command, [...launcherArgs, process.execPath, resolve(REPO_ROOT, 'dist/libs/platform/testing/src/cluster/receivers.main.js')], {
    env: { ...process.env, RECEIVER_HOST: host.address, RECEIVER_PORTS: RECEIVER_PORTS.join(',') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Set<number>();
  const ready = new Promise<void>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`the receivers exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const parsed = JSON.parse(line);
      if (parsed.listening) {
        listening.add(parsed.listening);
        if (listening.size === RECEIVER_PORTS.length) done();
      } else {
        deliveries.push({ ...parsed, at: Date.now() });
      }
    });
  });
  createInterface({ input: child.stderr! }).on('line', output);
  await ready;
  return child;
}
