import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { LaunchOptions, ManagedProcess } from './managed-process';
import { MIGRATION_ENTRIES, ProcessSpec } from './process-catalog';

const run = promisify(execFile);

export interface SupervisorOptions extends Omit<LaunchOptions, 'healthPort'> {
  /** Start a process again when it dies on its own (not when we stop it). */
  restartOnCrash?: boolean;
}

/** Starts the system's processes, restarts the ones that crash if asked, and stops them all together. */
export class Supervisor {
  private readonly processes = new Map<string, ManagedProcess>();
  private stopping = false;

  constructor(private readonly options: SupervisorOptions) {}

  start(spec: ProcessSpec, healthPort = spec.healthPort): ManagedProcess {
    const managed = new ManagedProcess(spec, { ...this.options, healthPort });
    this.processes.set(spec.name, managed);
    void managed.exited.then((code) => {
      if (this.stopping || this.processes.get(spec.name) !== managed) return;
      this.options.output(`[${spec.name}] exited with ${code ?? managed.exitSignal}`);
      if (this.options.restartOnCrash) setTimeout(() => !this.stopping && this.start(spec, healthPort), 1_000);
    });
    return managed;
  }

  get(name: string): ManagedProcess | undefined {
    return this.processes.get(name);
  }

  all(): ManagedProcess[] {
    return [...this.processes.values()];
  }

  async stopAll(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    await Promise.all(this.all().map((managed) => managed.stop(timeoutMs)));
  }
}

/** Runs every context's migrations (disjoint schemas, so side by side); fails with the output of the one that failed. */
export async function runMigrations(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  await Promise.all(
    MIGRATION_ENTRIES.map(async (entry) => {
      try {
        await run(process.execPath, [resolve(root, entry)], { cwd: root, env, timeout: 120_000 });
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(`migration ${entry} failed:\n${stderr || stdout || (error as Error).message}`);
      }
    }),
  );
}
