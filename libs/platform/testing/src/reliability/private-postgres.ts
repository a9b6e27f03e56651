import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../free-port';

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  /** A connection URL for `database` on this cluster (trust authentication, user postgres). */
  url(database: string): string;
  /** Stops the cluster the hard way (`immediate`: no checkpoint, like a crash) or cleanly (`fast`). */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** Stops for good and removes the data directory. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`). */
function postgresBinDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const majors = readdirSync('/usr/lib/postgresql').map(Number).filter(Number.isFinite).sort((a, b) => b - a);
  if (majors.length === 0) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${majors[0]}/bin`;
}

/** PostgreSQL refuses to run as root: when we are root, its tools run as the `postgres` system user. */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function pgTool(tool: string, args: string[], launcher: readonly string[] = []): Promise<void> {
  const [command, argv] = asClusterOwner(join(postgresBinDir(), tool), args);
  const [first, ...rest] = [...launcher, command, ...argv];
  await run(first, rest, { timeout: 60_000 });
}

async function waitAccepting(host: string, port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Client({ host, port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`private PostgreSQL on ${port} did not accept connections: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Where a private server runs and listens. */
export interface PrivateServerOptions {
  /** The address it listens on (default 127.0.0.1). */
  host: string;
  /** Clients it lets in beyond loopback (CIDR), for a server on a test network's bridge. */
  clients?: string;
  /** Runs the server elsewhere (`ip netns exec <host>`): see LaunchOptions.launcher of the runner. */
  launcher?: readonly string[];
  /** Where its temporary directory goes (default: the system's). */
  parentDir?: string;
  /** Postgres's max_connections (default 200). */
  maxConnections?: number;
}

/**
 * A PostgreSQL cluster of the caller's own in a temporary directory, on a free port of loopback (or of
 * the address given), with fsync on so that a hard stop loses nothing that was committed. Tests may stop
 * and start it at will without disturbing the machine's shared server.
 */
export async function startPrivatePostgres(options: PrivateServerOptions = { host: '127.0.0.1' }): Promise<PrivatePostgres> {
  const { host, clients, launcher, maxConnections = 200 } = options;
  const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'pg-reliability-'));
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await pgTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  if (clients) appendFileSync(join(data, 'pg_hba.conf'), `host all all ${clients} trust\n`);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=${host} -c fsync=on -c max_connections=${maxConnections} -c shared_buffers=64MB`;
  const start = async () => {
    await pgTool('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start'], launcher);
    await waitAccepting(host, port);
  };
  const stop = async (mode: 'immediate' | 'fast' = 'immediate') => {
    await pgTool('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], launcher);
  };
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@${host}:${port}/${database}`,
    stop,
    start,
    destroy: async () => {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
