import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { freePort } from './free-port';
import { LocalServer, startLocalServer } from './local-server';

export type PrivateNats = LocalServer;

/**
 * A NATS server with JetStream of the test's own, on a free loopback port: processes started against it
 * cannot take requests meant for the shared test stack, nor the other way round. It restarts on the
 * same port with the same JetStream store, as a real NATS restart would.
 */
export async function startPrivateNats(binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server'): Promise<PrivateNats> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'nats-test-'));
  const url = `nats://127.0.0.1:${port}`;
  return startLocalServer({
    name: 'nats-server',
    url,
    dataDir,
    launch: () => spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dataDir], { stdio: 'ignore' }),
    answers: async () => {
      const nc = await connect({ servers: url, timeout: 500, reconnect: false }).catch(() => undefined);
      await nc?.close();
      return nc !== undefined;
    },
  });
}
