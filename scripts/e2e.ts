/**
 * The end-to-end suites against one stack: every e2e spec (and the repository checks in tests/) in
 * parallel jest workers, then the specs marked `@run-alone` one at a time, because they watch something
 * the whole stack shares (a NOTIFY channel, say) that other specs' traffic would disturb.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startE2eStack } from '@platform/testing';

// Compiled to dist/scripts/e2e.js; the repository root is two levels up.
const root = resolve(__dirname, '../..');
/** Most of an e2e spec's time is spent waiting on the stack, so more workers than cores pay. */
const WORKERS = 4;
const RUN_ALONE = '@run-alone';

function specsRunAlone(): string[] {
  return ['apps', 'libs', 'tests'].flatMap((folder) =>
    readdirSync(resolve(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.e2e-spec.ts') && !path.includes('node_modules'))
      .map((path) => join(folder, path))
      .filter((path) => readFileSync(resolve(root, path), 'utf8').includes(RUN_ALONE)),
  );
}

function jest(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], { cwd: root, env, stdio: 'inherit' });
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<void> {
  const alone = specsRunAlone();
  const escaped = alone.map((path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const stack = await startE2eStack();
  const env = { ...process.env, TEST_STACK_STATE: stack.stateFile };
  let failed = false;
  try {
    const together = ['tests/', '\\.e2e-spec\\.ts$', '--selectProjects', 'unit', 'e2e', `--maxWorkers=${WORKERS}`];
    failed = (await jest([...together, ...escaped.flatMap((path) => ['--testPathIgnorePatterns', path])], env)) !== 0;
    if (alone.length) failed = (await jest([...escaped, '--selectProjects', 'e2e', '--runInBand'], env)) !== 0 || failed;
  } finally {
    await stack.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
