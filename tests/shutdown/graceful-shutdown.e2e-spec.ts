import { PROCESSES } from '@platform/runner';
import { freePort, startProcess } from '@platform/testing';

/** Well inside the Kubernetes grace period (30 s) and SHUTDOWN_TIMEOUT_MS (25 s) for an idle process. */
const EXIT_WITHIN_MS = 10_000;

describe('graceful shutdown', () => {
  it.each(PROCESSES.map(({ name }) => [name]))('%s exits 0 soon after SIGTERM', async (name) => {
    const overrides: Record<string, string> = name === 'gateway' ? { PORT: String(await freePort()) } : {};
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
