import { PROCESSES, runMigrations } from '@platform/runner';
import { createScratchDatabase, freePort, PrivateNats, REPO_ROOT, startPrivateNats, startProcess, stackEnv, testDatabaseUrl } from '@platform/testing';
import { PrivateRedis, startPrivateRedis } from '@platform/testing/reliability';

/** Well inside the Kubernetes grace period (30 s) and SHUTDOWN_TIMEOUT_MS (25 s) for an idle process. */
const EXIT_WITHIN_MS = 10_000;

describe('graceful shutdown', () => {
  // Idle for certain: each instance has a database, a NATS and a Redis of its own, so it takes none of the
  // stack's work (a request, an event, a delivery, an export) that other test files are waiting for.
  let nats: PrivateNats;
  let redis: PrivateRedis;
  let isolated: Record<string, string>;

  beforeAll(async () => {
    [nats, redis] = await Promise.all([startPrivateNats(), startPrivateRedis()]);
    const databaseUrl = await createScratchDatabase(testDatabaseUrl());
    isolated = { DATABASE_URL: databaseUrl, NATS_URL: nats.url, REDIS_URL: redis.url };
    await runMigrations(REPO_ROOT, { ...stackEnv(), ...isolated });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([nats?.destroy(), redis?.destroy()]);
  });

  it.each(PROCESSES.map(({ name }) => [name]))('%s exits 0 soon after SIGTERM', async (name) => {
    const overrides: Record<string, string> = { ...isolated, ...(name === 'gateway' ? { PORT: String(await freePort()) } : {}) };
    const instance = await startProcess(name, overrides);
    const healthUrl = `http://127.0.0.1:${instance.healthPort}/health/ready`;
    expect((await fetch(healthUrl)).status).toBe(200);

    const sentAt = Date.now();
    instance.kill('SIGTERM');
    const timeout = new Promise<'timed out'>((done) => setTimeout(() => done('timed out'), EXIT_WITHIN_MS).unref());
    const outcome = await Promise.race([instance.exited, timeout]);
    if (outcome === 'timed out') instance.kill('SIGKILL');
    expect({ name, exitCode: outcome, signal: instance.exitSignal }).toEqual({ name, exitCode: 0, signal: null });
    expect(Date.now() - sentAt).toBeLessThan(EXIT_WITHIN_MS);
  });
});
