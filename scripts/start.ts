/**
 * `npm start`: creates the database if needed, runs every migration, gives a fresh development
 * database an organization and key, then runs every process with prefixed logs until Ctrl-C or SIGTERM.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { BaseConfig, loadConfig } from '@platform/config';
import { ensureDatabase } from '@platform/persistence';
import { ADMIN_ENTRY, PROCESSES, runMigrations, Supervisor } from '@platform/runner';

// Compiled to dist/scripts/start.js; the repository root is two levels up.
const root = resolve(__dirname, '../..');
const print = (line: string) => process.stdout.write(`${line}\n`);

/** Creates the Development organization and its key on an empty database; answers the key when it did. */
async function bootstrapDevelopmentKey(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { stdout } = await promisify(execFile)(process.execPath, [resolve(root, ADMIN_ENTRY), 'dev', 'bootstrap'], { cwd: root, env });
  const result = JSON.parse(stdout);
  if (!result.created) return undefined;
  print('');
  print(`Created organization "Development" (${result.organization.id}, plan 250) with an API key (scope *):`);
  print(`  ${result.key.key}`);
  print('It is shown once: keep it. More keys: npm run --silent admin -- key create --org ' + result.organization.id);
  print('');
  return result.key.key as string;
}

async function main(): Promise<void> {
  const config = loadConfig(BaseConfig);
  const port = process.env.PORT || '3000';
  const env = { ...process.env, NODE_ENV: config.NODE_ENV };
  print(`Preparing database ${new URL(config.DATABASE_URL).pathname.slice(1)} ...`);
  await ensureDatabase(config.DATABASE_URL);
  await runMigrations(root, env);
  const developmentKey = config.isProduction ? undefined : await bootstrapDevelopmentKey(env);

  const supervisor = new Supervisor({ root, env, output: print, restartOnCrash: true });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    print(`Received ${signal}; stopping every process ...`);
    await supervisor.stopAll(Number(process.env.SHUTDOWN_TIMEOUT_MS) || 25_000);
    print('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // HEALTH_PORT_OFFSET shifts every process's health port, to run a second system beside the first.
  const offset = Number(process.env.HEALTH_PORT_OFFSET ?? 0) || 0;
  const started = PROCESSES.map((spec) => supervisor.start(spec, spec.healthPort + offset));
  await Promise.all(started.map((managed) => managed.waitReady(60_000)));
  print(`Gateway ready at http://localhost:${port}/v1`);
  // Repeated here, where it is not buried under the processes' start-up logs, ready to paste.
  if (developmentKey) print(`export KEY=${developmentKey}`);
}

main().catch((error: Error) => {
  process.stderr.write(`npm start failed: ${error.message}\n`);
  process.exit(1);
});
