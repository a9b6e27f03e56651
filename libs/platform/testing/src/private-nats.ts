import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { freePort } from './free-port';

export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
}

/**
 * A NATS server with JetStream of the test's own, on a free loopback port: processes started against it
 * cannot take requests meant for the shared test stack, nor the other way round.
 */
export async function startPrivateNats(binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server'): Promise<PrivateNats> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'nats-test-'));
  const server = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const nc = await connect({ servers: url, timeout: 500 }).catch(() => undefined);
    if (nc) {
      await nc.close();
      break;
    }
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`nats-server did not start on ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
      rmSync(store, { recursive: true, force: true });
    },
  };
}
