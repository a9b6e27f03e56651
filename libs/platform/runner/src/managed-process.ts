import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ProcessSpec } from './app-manifests';

export interface LaunchOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  /** Receives every output line of the process, already prefixed with its name. */
  output: (line: string) => void;
  healthPort?: number;
  /** Where each process writes a V8 CPU profile of its whole life (`<name>.cpuprofile`, on exit); for the benches. */
  cpuProfileDir?: string;
  /**
   * A command that runs the process somewhere else and then execs it (`ip netns exec <host>`), so the
   * child's pid stays the process's own; the cluster test runs each host's copy in its network namespace.
   */
  launcher?: readonly string[];
  /** Where the health port answers (the namespace's address when a launcher moves it off this loopback). */
  healthHost?: string;
}

/** The header with which every process's probe answers its own pid (served by `@platform/service`). */
export const PROCESS_ID_HEADER = 'X-Process-Id';

/** How many of a process's last output lines are kept, to say why it stopped. */
const KEPT_LINES = 15;

/**
 * V8 flags every process of the system runs with (the images' CMDs and the Kubernetes containers' commands
 * carry the same; tests/deploy holds them to this list). Both trade a little GC work for memory, as
 * measured in bench/README.md: young-generation semi-spaces of 8 MiB instead of up to 16 keep an idle
 * service under 120 MiB resident while scavenging the batches in flight less often than 4 MiB did, and an
 * old generation allowed to grow to 1.75x what survived its last full GC instead of V8's up to 4x keeps a
 * loaded one under 200 MiB. 1.5x marked the old generation about once a second under batch creates, for
 * 8-13% more CPU per row across the processes; 2x saved no more than 1.75x and raised the peaks by 20-30 MiB
 * (the million-row import's to 196).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=75'];

/** One child process of the system: its output prefixed line by line, its readiness polled over HTTP. */
export class ManagedProcess {
  readonly child: ChildProcess;
  readonly healthPort: number;
  readonly healthHost: string;
  readonly exited: Promise<number | null>;
  exitCode: number | null | undefined;
  exitSignal: NodeJS.Signals | null = null;
  /** The process's last output lines, newest last. */
  readonly lastLines: string[] = [];

  constructor(readonly spec: ProcessSpec, options: LaunchOptions) {
    this.healthPort = options.healthPort ?? spec.healthPort;
    this.healthHost = options.healthHost ?? '127.0.0.1';
    // Run as the images run it: no --enable-source-maps, which parses every dependency's source map at
    // load (about 20 MiB more RSS per process) to rewrite stack traces the compiled files explain anyway.
    const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`, `--cpu-prof-name=${spec.name}.cpuprofile`] : [];
    const [command, ...launcherArgs] = [...(options.launcher ?? []), process.execPath];
    this.child = spawn(command, [...launcherArgs, ...NODE_FLAGS, ...profile, resolve(options.root, spec.entry)], {
      cwd: options.root,
      env: { ...options.env, HEALTH_PORT: String(this.healthPort), SUPERVISOR_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `[${spec.name}] `;
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.lastLines.push(line);
        if (this.lastLines.length > KEPT_LINES) this.lastLines.shift();
        options.output(prefix + line);
      });
    }
    this.exited = new Promise((done) =>
      this.child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        done(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /**
   * Ready when this very process answers its readiness probe: an answer from another program that holds
   * the port (without this process's pid in its `X-Process-Id`) does not count.
   */
  async isReady(): Promise<boolean> {
    const url = `http://${this.healthHost}:${this.healthPort}/health/ready`;
    return fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      (res) => res.ok && res.headers.get(PROCESS_ID_HEADER) === String(this.pid),
      () => false,
    );
  }

  async waitReady(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.spec.name} exited with ${this.exitCode ?? this.exitSignal} before it was ready`);
      if (await this.isReady()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.spec.name} was not ready within ${timeoutMs} ms`);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL if it has not exited within the timeout; answers the exit code. */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (!this.running) return this.exitCode ?? null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
