import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ip = (...args: string[]) => run('ip', args, { timeout: 10_000 });

/** Where each run notes the slot it holds (its pid), so a later run finds what a killed one left. */
const STATE_DIR = '/run/odp-cluster';
const PREFIX = 'odpc';
const SLOTS = 40;

/** One machine of the cluster: a network namespace with one address on the cluster's bridge. */
export interface NetworkHost {
  name: string;
  namespace: string;
  address: string;
  /** Runs a command inside the namespace (it execs the command: the pid stays the command's). */
  launcher: string[];
}

export interface ClusterNetwork {
  /** The bridge's own address in this namespace, where Postgres and Redis listen for the hosts. */
  bridgeAddress: string;
  subnet: string;
  hosts: NetworkHost[];
  host(name: string): NetworkHost;
  /** SIGKILL to every process in the host's namespace: the machine is gone at once. */
  killHost(name: string): Promise<number[]>;
  destroy(): Promise<void>;
}

const slotNames = (slot: number) => ({ bridge: `${PREFIX}${slot}-br`, namespace: (host: string) => `${PREFIX}${slot}-${host}` });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function namespaces(): Promise<string[]> {
  const { stdout } = await ip('netns', 'list');
  return stdout.split('\n').map((line) => line.split(' ')[0]).filter(Boolean);
}

async function pidsIn(namespace: string): Promise<number[]> {
  const { stdout } = await ip('netns', 'pids', namespace).catch(() => ({ stdout: '' }));
  return stdout.split('\n').map(Number).filter((pid) => pid > 0);
}

async function killAllIn(namespace: string): Promise<number[]> {
  const pids = await pidsIn(namespace);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

/** Removes a slot's namespaces (with whatever still runs in them: a veth goes with its namespace) and bridge. */
async function clearSlot(slot: number): Promise<void> {
  const { bridge, namespace } = slotNames(slot);
  for (const name of (await namespaces()).filter((ns) => ns.startsWith(namespace('')))) {
    await killAllIn(name);
    await ip('netns', 'delete', name).catch(() => undefined);
  }
  // A veth pair goes with its namespace, but not at once: its end here stays listed for a while.
  for (let attempt = 0; attempt < 100; attempt++) {
    const { stdout } = await ip('-o', 'link', 'show');
    const links = stdout.split('\n').map((line) => line.split(': ')[1]?.split('@')[0]).filter((link) => link?.startsWith(namespace('')) || link === bridge);
    if (links.length === 0) break;
    for (const link of links) await ip('link', 'delete', link).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rmSync(join(STATE_DIR, `${slot}.pid`), { force: true });
}

function ownerOf(slot: number): number | undefined {
  try {
    return Number(readFileSync(join(STATE_DIR, `${slot}.pid`), 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/** Clears every slot whose run is dead (killed before it could clean up), then claims a free one. */
async function claimSlot(): Promise<number> {
  mkdirSync(STATE_DIR, { recursive: true });
  const leftovers = new Set<number>();
  for (const file of readdirSync(STATE_DIR)) {
    const slot = Number(file.replace(/\.pid$/, ''));
    const owner = ownerOf(slot);
    if (Number.isInteger(slot) && !(owner && alive(owner))) leftovers.add(slot);
  }
  for (const ns of await namespaces()) {
    const match = new RegExp(`^${PREFIX}(\\d+)-`).exec(ns);
    const owner = match ? ownerOf(Number(match[1])) : undefined;
    if (match && !(owner && alive(owner))) leftovers.add(Number(match[1]));
  }
  for (const slot of leftovers) await clearSlot(slot);
  for (let slot = 0; slot < SLOTS; slot++) {
    try {
      writeFileSync(join(STATE_DIR, `${slot}.pid`), String(process.pid), { flag: 'wx' });
      return slot;
    } catch {
      // held by a live run
    }
  }
  throw new Error(`every cluster network slot (${SLOTS}) is held by a running cluster test`);
}

/**
 * Hosts in network namespaces of their own, joined by a bridge in a private range of this run's own
 * (10.213.<slot>.0/24: the bridge .1, the hosts .11 upwards). Everything is removed by `destroy`, and by
 * the next run when this one was killed first.
 */
export async function createClusterNetwork(hostNames: string[]): Promise<ClusterNetwork> {
  const slot = await claimSlot();
  const { bridge, namespace } = slotNames(slot);
  const subnet = `10.213.${slot}.0/24`;
  const bridgeAddress = `10.213.${slot}.1`;
  const destroy = () => clearSlot(slot);
  const hosts: NetworkHost[] = hostNames.map((name, i) => ({
    name,
    namespace: namespace(name),
    address: `10.213.${slot}.${11 + i}`,
    launcher: ['ip', 'netns', 'exec', namespace(name)],
  }));
  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    await ip('addr', 'add', `${bridgeAddress}/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    for (const host of hosts) {
      await ip('netns', 'add', host.namespace);
      await ip('link', 'add', host.namespace, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace);
      await ip('link', 'set', host.namespace, 'master', bridge, 'up');
      await ip('-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
      await ip('-n', host.namespace, 'link', 'set', 'eth0', 'up');
      await ip('-n', host.namespace, 'link', 'set', 'lo', 'up');
    }
  } catch (error) {
    await destroy();
    throw error;
  }
  return {
    bridgeAddress,
    subnet,
    hosts,
    host: (name) => {
      const host = hosts.find((candidate) => candidate.name === name);
      if (!host) throw new Error(`no host ${name}`);
      return host;
    },
    killHost: (name) => killAllIn(namespace(name)),
    destroy,
  };
}
