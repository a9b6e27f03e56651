import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessSpec } from './app-manifests';
import { Crash, Supervisor } from './supervisor';
import { portIsFree, takenPorts } from './free-ports';

const root = mkdtempSync(join(tmpdir(), 'supervisor-spec-'));
function script(name: string, source: string): ProcessSpec {
  writeFileSync(join(root, `${name}.js`), source);
  return { name, entry: `${name}.js`, healthPort: 0 } as unknown as ProcessSpec;
}
const quietOptions = { root, env: { ...process.env }, output: () => undefined };

/** A child that serves /health/ready on HEALTH_PORT, with or without its pid in X-Process-Id. */
const probeServer = (withPid: boolean) => `
  require('node:http').createServer((req, res) => {
    ${withPid ? "res.setHeader('X-Process-Id', String(process.pid));" : ''}
    res.end('{"status":"ok"}');
  }).listen(Number(process.env.HEALTH_PORT), '127.0.0.1');`;

async function listening(answer: (res: import('node:http').ServerResponse) => void): Promise<Server> {
  const server = createServer((_, res) => answer(res));
  await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
  return server;
}

describe('Supervisor', () => {
  it('gives up on a process that crashes on every start, with its last output, after backing off', async () => {
    const crashing = script('crashing', "console.error('EADDRINUSE: address already in use 0.0.0.0:7101'); process.exit(3);");
    const lines: string[] = [];
    const gaveUp = new Promise<Crash>((done) => {
      const supervisor = new Supervisor({ ...quietOptions, output: (line) => lines.push(line), restartOnCrash: true, restartDelaysMs: [50, 100], onGiveUp: done });
      supervisor.start(crashing);
    });
    const started = Date.now();
    const crash = await gaveUp;
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(crash).toMatchObject({ name: 'crashing', crashes: 3, exit: '3' });
    expect(crash.lastLines).toEqual(['EADDRINUSE: address already in use 0.0.0.0:7101']);
    expect(lines.filter((line) => line.includes('restarting in'))).toHaveLength(2);
  });

  it('counts a process ready only when its own pid answers the probe, not another program on the port', async () => {
    const impostor = await listening((res) => res.end('{"status":"ok"}'));
    const impostorPort = (impostor.address() as AddressInfo).port;
    const supervisor = new Supervisor(quietOptions);
    try {
      // Nothing of ours listens there: another program answers 200 without our pid.
      const silent = supervisor.start(script('silent', 'setInterval(() => undefined, 1000);'), impostorPort);
      expect(await silent.isReady()).toBe(false);
      await expect(supervisor.waitAllReady(500)).rejects.toThrow('not ready within 0.5 s: silent');
    } finally {
      await supervisor.stopAll(2_000);
      impostor.close();
    }
    const own = new Supervisor(quietOptions);
    try {
      const free = await listening(() => undefined);
      const freePort = (free.address() as AddressInfo).port;
      await new Promise((done) => free.close(done));
      const serving = own.start(script('serving', probeServer(true)), freePort);
      await own.waitAllReady(10_000);
      expect(await serving.isReady()).toBe(true);
    } finally {
      await own.stopAll(2_000);
    }
  });

  it('tells which of the ports it needs are taken', async () => {
    const server = await listening((res) => res.end());
    const taken = (server.address() as AddressInfo).port;
    try {
      expect(await portIsFree(taken)).toBe(false);
      const claims = [
        { port: taken, owner: 'the health port of gateway', setting: 'HEALTH_PORT_OFFSET' },
        { port: taken + 1, owner: 'the health port of tables', setting: 'HEALTH_PORT_OFFSET' },
      ];
      const busy = await takenPorts(claims);
      expect(busy[0]).toEqual(claims[0]);
      expect(await portIsFree(claims[1].port)).toBe(busy.length === 1);
    } finally {
      server.close();
    }
  });
});
