import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '../free-port';
import { LocalServer, startLocalServer } from '../local-server';
import type { PrivateServerOptions } from './private-postgres';

export type PrivateRedis = LocalServer;

async function answersPing(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * A redis-server of the caller's own on a free port of loopback (or of the address given), persisting to an append-only file in a
 * temporary directory (fsync on every write unless `appendfsync` says `everysec`, as production runs it), so that a restart keeps
 * the queues it held. SIGTERM makes Redis write its append-only file before it exits.
 */
export async function startPrivateRedis(
  options: PrivateServerOptions & { appendfsync?: 'always' | 'everysec' } = { host: '127.0.0.1' },
  binary = process.env.REDIS_SERVER_BIN ?? 'redis-server',
): Promise<PrivateRedis> {
  const dataDir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'redis-reliability-'));
  const port = await freePort();
  const url = `redis://${options.host}:${port}`;
  // Bound to one address, with no password: protected mode would refuse the clients of a test network.
  const args = ['--port', String(port), '--bind', options.host, '--protected-mode', 'no', '--dir', dataDir, '--save', '', '--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always', '--maxmemory-policy', 'noeviction'];
  return startLocalServer({ name: 'redis-server', url, dataDir, launch: () => {
      const [command, ...rest] = [...(options.launcher ?? []), binary, ...args];
      return spawn(command, rest, { stdio: 'ignore' });
    }, answers: () => answersPing(url) });
}
