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
      // Generous: on a loaded machine loading a process's modules alone can take seconds.
      timeout: 45_000,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toBeDefined();
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`Invalid configuration: ${variable} `);
  });
});

describe('tables with invalid object storage settings', () => {
  // In production the tables service also needs its cursor key; give it one, so the refusal is the storage setting's.
  const productionReady = { ROW_CURSOR_KEY: 'c'.repeat(64) };
  const refusal = async (env: Record<string, string>) =>
    run(process.execPath, [resolve(REPO_ROOT, 'dist/apps/tables/src/main.js')], {
      cwd: REPO_ROOT,
      env: { ...stackEnv(), ...productionReady, ...env },
      timeout: 45_000,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );

  it.each([
    [{ S3_ENDPOINT: 'ftp://storage' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ ATTACHMENT_MAX_BYTES: '0' }, 'ATTACHMENT_MAX_BYTES'],
    [{ NODE_ENV: 'production', S3_SECRET_ACCESS_KEY: '' }, 'S3_SECRET_ACCESS_KEY'],
    [{ NODE_ENV: 'production', S3_SECRET_ACCESS_KEY: 'minioadmin' }, 'S3_SECRET_ACCESS_KEY'],
  ])('refuses %j, naming %s', async (env, variable) => {
    const failure = await refusal(env);
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`Invalid configuration: ${variable} `);
  });
});
