/**
 * `npm start`: creates the database if needed, runs every migration, gives a fresh development
 * database an organization and key, then runs every process with prefixed logs until Ctrl-C or SIGTERM.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { BaseConfig, loadConfig } from '@platform/config';
import { ensureDatabase } from '@platform/persistence';
import { ADMIN_ENTRY, Crash, PortClaim, PROCESSES, runMigrations, Supervisor, takenPorts } from '@platform/runner';

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

/** Every port the system will listen on, with the setting that moves it. */
function portClaims(apiPort: number, healthPortOffset: number): PortClaim[] {
  return [
    { port: apiPort, owner: 'the API of gateway', setting: 'PORT' },
    ...PROCESSES.map((spec) => ({ port: spec.healthPort + healthPortOffset, owner: `the health port of ${spec.name}`, setting: 'HEALTH_PORT_OFFSET' })),
  ];
}

/** Stops before anything starts when a port is taken, naming it and the setting that moves it. */
async function checkPorts(claims: PortClaim[], healthPortOffset: number): Promise<void> {
  const taken = await takenPorts(claims);
  if (taken.length === 0) return;
  for (const claim of taken) print(`Port ${claim.port} (${claim.owner}) is in use by another program.`);
  const moves = new Set(taken.map((claim) => claim.setting));
  if (moves.has('PORT')) print('Set PORT to serve the API elsewhere, e.g. PORT=3100 npm start');
  if (moves.has('HEALTH_PORT_OFFSET')) {
    print(`Set HEALTH_PORT_OFFSET to move every health port (now ${PROCESSES[0].healthPort + healthPortOffset}-${Math.max(...PROCESSES.map((spec) => spec.healthPort)) + healthPortOffset}), e.g. HEALTH_PORT_OFFSET=1000 npm start`);
  }
  throw new Error('a port it needs is taken; nothing was started');
}

function summarize(crash: Crash): string {
  return [
    `${crash.name} crashed ${crash.crashes} times in a row (last exit: ${crash.exit}); its last output:`,
    ...crash.lastLines.map((line) => `  ${line}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const config = loadConfig(BaseConfig);
  const port = Number(process.env.PORT || 3000);
  const env = { ...process.env, NODE_ENV: config.NODE_ENV };
  // HEALTH_PORT_OFFSET shifts every process's health port, to run a second system beside the first.
  const offset = Number(process.env.HEALTH_PORT_OFFSET ?? 0) || 0;
  await checkPorts(portClaims(port, offset), offset);
  print(`Preparing database ${new URL(config.DATABASE_URL).pathname.slice(1)} ...`);
  await ensureDatabase(config.DATABASE_URL);
  await runMigrations(root, env);
  const developmentKey = config.isProduction ? undefined : await bootstrapDevelopmentKey(env);

  let stopping = false;
  const stop = async (why: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    print(`${why}; stopping every process ...`);
    await supervisor.stopAll(Number(process.env.SHUTDOWN_TIMEOUT_MS) || 25_000);
    print('Stopped.');
    process.exit(exitCode);
  };
  const supervisor = new Supervisor({
    root,
    env,
    output: print,
    restartOnCrash: true,
    onGiveUp: (crash) => {
      process.stderr.write(`${summarize(crash)}\n`);
      void stop(`npm start gave up on ${crash.name}`, 1);
    },
  });
  process.on('SIGINT', () => void stop('Received SIGINT', 0));
  process.on('SIGTERM', () => void stop('Received SIGTERM', 0));

  for (const spec of PROCESSES) supervisor.start(spec, spec.healthPort + offset);
  try {
    await supervisor.waitAllReady(120_000);
  } catch (error) {
    process.stderr.write(`npm start failed: ${(error as Error).message}\n`);
    return stop('Not every process became ready', 1);
  }
  print(`Gateway ready at http://localhost:${port}/v1`);
  print(`Console at http://localhost:${port}/console${developmentKey ? ' (sign in with the key below)' : ' (sign in with an API key)'}`);
  // Repeated here, where it is not buried under the processes' start-up logs, ready to paste.
  if (developmentKey) print(`export KEY=${developmentKey}`);
}

main().catch((error: Error) => {
  process.stderr.write(`npm start failed: ${error.message}\n`);
  process.exit(1);
});
