import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { LaunchOptions, ManagedProcess } from './managed-process';
import { MIGRATION_ENTRIES, ProcessSpec } from './app-manifests';

const run = promisify(execFile);

export interface SupervisorOptions extends Omit<LaunchOptions, 'healthPort'> {
  /** Start a process again when it dies on its own (not when we stop it), waiting longer after each crash. */
  restartOnCrash?: boolean;
  /** Waits before each restart of a process that keeps crashing; one crash more than this list gives up. */
  restartDelaysMs?: readonly number[];
  /** Called once when a process has crashed one time more than there are restart delays, in a row. */
  onGiveUp?: (crash: Crash) => void;
}

/** What is known of a process that keeps crashing. */
export interface Crash {
  name: string;
  crashes: number;
  exit: string;
  lastLines: readonly string[];
}

/** Waits before restarting a crashed process: 1 s, 2 s, 4 s, 8 s; after five crashes in a row it gives up. */
const RESTART_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];
/** A process that stayed up this long has recovered: its next crash counts from one again. */
const STABLE_AFTER_MS = 60_000;

/** Starts the system's processes, restarts the ones that crash if asked, and stops them all together. */
export class Supervisor {
  private readonly processes = new Map<string, ManagedProcess>();
  private readonly crashesInARow = new Map<string, number>();
  private stopping = false;

  constructor(private readonly options: SupervisorOptions) {}

  start(spec: ProcessSpec, healthPort = spec.healthPort): ManagedProcess {
    const managed = new ManagedProcess(spec, { ...this.options, healthPort });
    const startedAt = Date.now();
    this.processes.set(spec.name, managed);
    void managed.exited.then((code) => {
      if (this.stopping || this.processes.get(spec.name) !== managed) return;
      const exit = String(code ?? managed.exitSignal);
      this.options.output(`[${spec.name}] exited with ${exit}`);
      if (!this.options.restartOnCrash) return;
      const delays = this.options.restartDelaysMs ?? RESTART_DELAYS_MS;
      const crashes = Date.now() - startedAt >= STABLE_AFTER_MS ? 1 : (this.crashesInARow.get(spec.name) ?? 0) + 1;
      this.crashesInARow.set(spec.name, crashes);
      if (crashes > delays.length) {
        this.options.onGiveUp?.({ name: spec.name, crashes, exit, lastLines: managed.lastLines });
        return;
      }
      const delay = delays[crashes - 1];
      this.options.output(`[${spec.name}] restarting in ${delay / 1_000} s (crash ${crashes}; it gives up after ${delays.length + 1} in a row)`);
      setTimeout(() => !this.stopping && this.start(spec, healthPort), delay);
    });
    return managed;
  }

  /** Resolves when the current process of every name answers its own readiness probe. */
  async waitAllReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ready = await Promise.all(this.all().map((managed) => managed.running && managed.isReady()));
      if (ready.every(Boolean)) return;
      if (this.stopping) throw new Error('stopped before every process was ready');
      if (Date.now() >= deadline) {
        const late = this.all().filter((_, index) => !ready[index]).map((managed) => managed.spec.name);
        throw new Error(`not ready within ${timeoutMs / 1_000} s: ${late.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
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

/**
 * Runs every app's migration job (disjoint schemas, so side by side); answers what each printed (the
 * schema and the migrations it applied), and fails with the output of the one that failed.
 */
export async function runMigrations(root: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  return Promise.all(
    MIGRATION_ENTRIES.map(async (entry) => {
      try {
        return (await run(process.execPath, [resolve(root, entry)], { cwd: root, env, timeout: 120_000 })).stdout.trim();
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(`migration ${entry} failed:\n${stderr || stdout || (error as Error).message}`);
      }
    }),
  );
}
