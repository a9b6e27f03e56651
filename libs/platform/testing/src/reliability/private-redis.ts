import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '../free-port';

export interface PrivateRedis {
  port: number;
  url: string;
  /** Shuts the server down (SIGTERM: Redis writes its append-only file before it exits). */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

async function waitPong(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
      redis.disconnect();
      return;
    } catch (error) {
      redis.disconnect();
      if (Date.now() > deadline) throw new Error(`private Redis on ${url} did not answer: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A redis-server of the caller's own on a free loopback port, persisting to an append-only file in a
 * temporary directory (fsync on every write), so that a restart keeps the queues it held.
 */
export async function startPrivateRedis(binary = process.env.REDIS_SERVER_BIN ?? 'redis-server'): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-reliability-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    await waitPong(url);
  };
  const stop = async () => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGTERM');
    await new Promise((r) => running.once('exit', r));
  };
  await start();
  return {
    port,
    url,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
