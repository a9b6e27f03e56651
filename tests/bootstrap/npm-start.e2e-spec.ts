import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { apiClient, freePort, PrivateNats, REPO_ROOT, stackEnv, startPrivateNats } from '@platform/testing';

/**
 * Health ports 7100-7107 shifted to 8100-19106: below freePort's range (20000 and up) and below the kernel's
 * ephemeral ports (32768 and up), which a client socket of any test may hold at any moment.
 */
const healthPortOffset = () => 1_000 + (process.pid % 11_000);

function startSystem(env: NodeJS.ProcessEnv, lines: string[]): ChildProcess {
  const start = spawn(process.execPath, [resolve(REPO_ROOT, 'dist/scripts/start.js')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  createInterface({ input: start.stderr! }).on('line', (line) => lines.push(line));
  createInterface({ input: start.stdout! }).on('line', (line) => lines.push(line));
  return start;
}

/** `npm start` on an empty database: creates it, migrates, prints a key, serves, stops cleanly. */
describe('npm start on an empty database', () => {
  const database = `platform_boot_${process.pid}_${Date.now()}`;
  const adminUrl = stackEnv().DATABASE_URL.replace(/\/[^/]*$/, '/postgres');
  let nats: PrivateNats;
  let start: ChildProcess;
  const lines: string[] = [];

  beforeAll(async () => {
    nats = await startPrivateNats();
  });

  afterAll(async () => {
    if (start?.exitCode === null) start.kill('SIGKILL');
    await nats?.destroy();
    const db = new Client({ connectionString: adminUrl });
    await db.connect();
    await db.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await db.end();
  });

  it('brings the system up, prints a working key, the console address and the key again as an export line once ready, and stops on SIGTERM with exit 0', async () => {
    const port = await freePort();
    const env = {
      ...stackEnv(),
      NODE_ENV: 'development',
      DATABASE_URL: stackEnv().DATABASE_URL.replace(/\/[^/]*$/, `/${database}`),
      NATS_URL: nats.url,
      PORT: String(port),
      HEALTH_PORT_OFFSET: String(healthPortOffset()),
    };
    start = startSystem(env, lines);
    const ready = new Promise<void>((done, fail) => {
      createInterface({ input: start.stdout! }).on('line', (line) => {
        if (line.startsWith('export KEY=')) done();
      });
      start.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${lines.join('\n')}`)));
    });
    await ready;

    const readyLine = lines.indexOf(`Gateway ready at http://localhost:${port}/v1`);
    expect(readyLine).toBeGreaterThan(-1);
    const keys = [...new Set(lines.join('\n').match(/sk_[A-Za-z0-9_-]{43}/g) ?? [])];
    expect(keys).toHaveLength(1);
    expect(lines[readyLine + 1]).toBe(`Console at http://localhost:${port}/console (sign in with the key below)`);
    expect(lines[readyLine + 2]).toBe(`export KEY=${keys[0]}`);
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const page = await fetch(`http://127.0.0.1:${port}/console`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await apiClient(undefined, baseUrl).get('/calendar/availability')).status).toBe(401);
    const res = await apiClient(keys[0], baseUrl).get('/calendar/availability');
    expect(res.status).toBe(200);
    expect(lines.filter((line) => line.startsWith('[gateway] ')).length).toBeGreaterThan(0);

    const exited = new Promise<number | null>((done) => start.once('exit', done));
    start.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${baseUrl}/calendar/availability`)).rejects.toThrow();
  }, 180_000);
});

describe('npm start with a port taken by another program', () => {
  it('stops before starting anything, naming the port and the setting that moves it, even when that program answers /health/ready', async () => {
    const offset = healthPortOffset();
    const gatewayHealthPort = 7100 + offset;
    // Another program on the gateway's health port that would pass a naive readiness poll.
    const other = createServer((_, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((done) => other.listen(gatewayHealthPort, '0.0.0.0', done));
    const database = `platform_boot_taken_${process.pid}_${Date.now()}`;
    const lines: string[] = [];
    try {
      const env = {
        ...stackEnv(),
        NODE_ENV: 'development',
        DATABASE_URL: stackEnv().DATABASE_URL.replace(/\/[^/]*$/, `/${database}`),
        PORT: String(await freePort()),
        HEALTH_PORT_OFFSET: String(offset),
      };
      const start = startSystem(env, lines);
      const code = await new Promise<number | null>((done) => start.once('exit', done));
      expect(code).toBe(1);
      const output = lines.join('\n');
      expect(output).toContain(`Port ${gatewayHealthPort} (the health port of gateway) is in use by another program.`);
      expect(output).toContain('HEALTH_PORT_OFFSET');
      expect(output).not.toContain('Gateway ready');
      const admin = new Client({ connectionString: stackEnv().DATABASE_URL.replace(/\/[^/]*$/, '/postgres') });
      await admin.connect();
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      await admin.end();
      expect(rowCount).toBe(0);
    } finally {
      other.close();
    }
  }, 60_000);
});
