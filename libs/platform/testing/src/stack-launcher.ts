import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ensureDatabase } from '@platform/persistence';
import { PROCESSES, runMigrations, Supervisor } from '@platform/runner';
import { freePort } from './free-port';
import { startPrivateNats } from './private-nats';
import { startPrivateS3 } from './private-s3';
import { testStackEnv } from './stack-env';
import { REPO_ROOT, StackState } from './stack-state';
import { dropAbandonedTestDatabases, dropTestDatabase, flushTestRedis } from './test-databases';

export interface LaunchedStack {
  state: StackState;
  stateFile: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts the whole system from dist/ on free ports against the test database, as `npm start` would,
 * and writes where it listens to a state file that test files read.
 */
export async function launchTestStack(): Promise<LaunchedStack> {
  const dir = resolve(REPO_ROOT, 'dist/test-stack');
  mkdirSync(dir, { recursive: true });
  const stateFile = resolve(dir, `state-${process.pid}.json`);
  const logFile = resolve(dir, `stack-${process.pid}.log`);
  // A NATS of this run's own: several test runs on one machine never answer each other's requests.
  const nats = await startPrivateNats();
  // Attachment files go to an S3-protocol server of this run's own, started again should it crash.
  const s3 = await startPrivateS3({ keepRunning: true });
  const env: Record<string, string> = { ...testStackEnv(process.env), ...s3.env, PORT: String(await freePort()), NATS_URL: nats.url };

  await dropAbandonedTestDatabases(env.DATABASE_URL);
  await flushTestRedis(env.REDIS_URL);
  await ensureDatabase(env.DATABASE_URL);
  await runMigrations(REPO_ROOT, env);

  const log = createWriteStream(logFile, { flags: 'a' });
  const supervisor = new Supervisor({ root: REPO_ROOT, env, output: (line) => log.write(`${line}\n`) });
  const healthPorts: Record<string, number> = {};
  for (const spec of PROCESSES) healthPorts[spec.name] = await freePort();
  const started = PROCESSES.map((spec) => supervisor.start(spec, healthPorts[spec.name]));
  try {
    // A machine busy with other builds starts seven processes slowly: TEST_STACK_READY_MS waits longer.
    await Promise.all(started.map((managed) => managed.waitReady(Number(process.env.TEST_STACK_READY_MS) || 60_000)));
  } catch (error) {
    await supervisor.stopAll(5_000);
    await Promise.all([nats.destroy(), s3.destroy()]);
    throw new Error(`${(error as Error).message}; see ${logFile}`);
  }

  const state: StackState = { gatewayUrl: `http://127.0.0.1:${env.PORT}/v1`, env, healthPorts };
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return {
    state,
    stateFile,
    logFile,
    stop: async () => {
      await supervisor.stopAll(15_000);
      await Promise.all([nats.destroy(), s3.destroy()]);
      await dropTestDatabase(env.DATABASE_URL);
      log.end();
    },
  };
}
