import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PROCESSES } from '@platform/runner';
import { REPO_ROOT, stackEnv } from '@platform/testing';

const run = promisify(execFile);

/** A process given a bad value stops at once, with a message naming the variable. */
describe.each(PROCESSES.map((spec) => [spec.name, spec.entry]))('%s with invalid configuration', (_name, entry) => {
  it.each([
    ['HEALTH_PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://somewhere/else'],
    ['NATS_URL', 'nowhere'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s', async (variable, value) => {
    const failure = await run(process.execPath, [resolve(REPO_ROOT, entry)], {
      cwd: REPO_ROOT,
      env: { ...stackEnv(), [variable]: value },
      timeout: 20_000,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toBeDefined();
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`Invalid configuration: ${variable} `);
  });
});
