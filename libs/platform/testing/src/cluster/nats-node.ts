import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { LocalServer, startLocalServer } from '../local-server';
import type { NetworkHost } from './cluster-network';

export const NATS_CLIENT_PORT = 4222;
const NATS_ROUTE_PORT = 6222;

export const natsUrlOf = (host: NetworkHost) => `nats://${host.address}:${NATS_CLIENT_PORT}`;

/**
 * One node of the cluster's NATS (JetStream on, its store in a directory that outlives a kill, routes to
 * every other host), run inside its host's namespace. It answers once the cluster has a JetStream leader,
 * so services that create the stream at start-up find one.
 */
export async function startNatsNode(host: NetworkHost, peers: NetworkHost[], parentDir = tmpdir()): Promise<LocalServer> {
  const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
  const dataDir = mkdtempSync(join(parentDir, `nats-${host.name}-`));
  const routes = peers.filter((peer) => peer !== host).map((peer) => `nats://${peer.address}:${NATS_ROUTE_PORT}`);
  const args = ['-a', host.address, '-p', String(NATS_CLIENT_PORT), '-js', '-sd', dataDir, '--server_name', host.name];
  const cluster = ['--cluster_name', 'platform', '-cluster', `nats://${host.address}:${NATS_ROUTE_PORT}`, '-routes', routes.join(',')];
  const [command, ...launcherArgs] = host.launcher;
  return startLocalServer({
    name: `nats-server on ${host.name}`,
    url: natsUrlOf(host),
    dataDir,
    startTimeoutMs: 30_000,
    launch: () => spawn(command, [...launcherArgs, binary, ...args, ...cluster], { stdio: 'ignore' }),
    answers: async () => {
      const nc = await connect({ servers: natsUrlOf(host), timeout: 500, reconnect: false }).catch(() => undefined);
      if (!nc) return false;
      try {
        await (await nc.jetstreamManager({ timeout: 1_000 })).getAccountInfo();
        return true;
      } catch {
        return false;
      } finally {
        await nc.close();
      }
    },
  });
}
