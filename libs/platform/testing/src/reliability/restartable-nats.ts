import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { freePort } from '../free-port';

export interface RestartableNats {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Like `startPrivateNats`, but it can be stopped and started again on the same port with the same
 * JetStream store, as a real NATS restart would be.
 */
export async function startRestartableNats(binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server'): Promise<RestartableNats> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'nats-reliability-'));
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    server = child;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const nc = await connect({ servers: url, timeout: 500, reconnect: false }).catch(() => undefined);
      if (nc) {
        await nc.close();
        return;
      }
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nats-server did not start on ${url}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGTERM');
    await new Promise((r) => running.once('exit', r));
  };
  await start();
  return {
    url,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
