import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { ManagedProcess, ProcessName, processSpec } from '@platform/runner';
import { freePort } from './free-port';
import { REPO_ROOT, stackEnv } from './stack-state';

const started = new Set<ManagedProcess>();
process.once('exit', () => started.forEach((managed) => managed.kill('SIGKILL')));

/** Starts one more instance of an app with the stack's environment (plus overrides), ready to take work. */
export async function startProcess(name: ProcessName, overrides: Record<string, string> = {}): Promise<ManagedProcess> {
  const log = createWriteStream(resolve(REPO_ROOT, `dist/test-stack/extra-${name}-${process.pid}.log`), { flags: 'a' });
  const managed = new ManagedProcess(processSpec(name), {
    root: REPO_ROOT,
    env: { ...stackEnv(), ...overrides },
    healthPort: await freePort(),
    output: (line) => log.write(`${line}\n`),
  });
  started.add(managed);
  void managed.exited.then(() => {
    started.delete(managed);
    log.end();
  });
  await managed.waitReady(60_000);
  return managed;
}
