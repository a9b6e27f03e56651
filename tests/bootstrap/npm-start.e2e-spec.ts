import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { apiClient, freePort, PrivateNats, REPO_ROOT, stackEnv, startPrivateNats } from '@platform/testing';

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

  it('brings the system up, prints a working key, repeats it as an export line once ready, and stops on SIGTERM with exit 0', async () => {
    const port = await freePort();
    const env = {
      ...stackEnv(),
      NODE_ENV: 'development',
      DATABASE_URL: stackEnv().DATABASE_URL.replace(/\/[^/]*$/, `/${database}`),
      NATS_URL: nats.url,
      PORT: String(port),
      // Health ports 9000-9106 shifted to 10000-18105: below freePort's range (20000 and up) and below the
      // kernel's ephemeral ports (32768 and up), which a client socket of any test may hold at any moment.
      HEALTH_PORT_OFFSET: String(1_000 + (process.pid % 8_000)),
    };
    start = spawn(process.execPath, [resolve(REPO_ROOT, 'dist/scripts/start.js')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: start.stderr! }).on('line', (line) => lines.push(line));
    const ready = new Promise<void>((done, fail) => {
      createInterface({ input: start.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('export KEY=')) done();
      });
      start.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${lines.join('\n')}`)));
    });
    await ready;

    const readyLine = lines.indexOf(`Gateway ready at http://localhost:${port}/v1`);
    expect(readyLine).toBeGreaterThan(-1);
    const keys = [...new Set(lines.join('\n').match(/sk_[A-Za-z0-9_-]{43}/g) ?? [])];
    expect(keys).toHaveLength(1);
    expect(lines[readyLine + 1]).toBe(`export KEY=${keys[0]}`);
    const baseUrl = `http://127.0.0.1:${port}/v1`;
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
