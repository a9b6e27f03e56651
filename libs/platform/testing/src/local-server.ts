import { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/** A server a test runs on loopback (NATS, Redis): stopped and started again with its data, then destroyed. */
export interface LocalServer {
  url: string;
  /** Where it keeps its data across a stop and start (a test may empty it to start the server afresh). */
  dataDir: string;
  /** The running server's process id (a benchmark reads its CPU time); undefined while it is stopped. */
  readonly pid: number | undefined;
  /** Starts it and waits until it answers. */
  start(): Promise<void>;
  /** SIGTERM, and waits for the exit; its data directory stays for the next start. */
  stop(): Promise<void>;
  /** Stops it for good and removes its data directory. */
  destroy(): Promise<void>;
  /** Its next exit is the caller's doing (a test kills its host outright): not reported, and not restarted. */
  expectExit(): void;
}

export interface LocalServerSpec {
  name: string;
  url: string;
  dataDir: string;
  launch: () => ChildProcess;
  /** Answers whether the server takes requests yet. */
  answers: () => Promise<boolean>;
  /** Where the server writes what it prints, named when it exits unasked (and then kept; else removed with the data). */
  logFile?: string;
  /** Starts it again when it exits unasked (a test emulator that crashed must not fail every later test). */
  keepRunning?: boolean;
  startTimeoutMs?: number;
}

export async function startLocalServer(spec: LocalServerSpec): Promise<LocalServer> {
  let server: ChildProcess | undefined;
  let stopping = false;
  /** Set once it exited unasked: its output file is then kept after the end, for whoever reads the report. */
  let crashed = false;
  /** The start that follows a crash, while it waits for the server to answer. */
  let restarting: Promise<void> | undefined;
  const start = async (): Promise<void> => {
    stopping = false;
    const child = spec.launch();
    server = child;
    let answered = false;
    child.once('exit', (code, signal) => {
      if (server !== child || stopping || !answered) return;
      crashed = true;
      const output = spec.logFile ? `; its output: ${spec.logFile}` : '';
      process.stderr.write(`${spec.name} on ${spec.url} exited unasked (code ${code}, signal ${signal})${output}\n`);
      if (spec.keepRunning) {
        restarting = start()
          .catch((error: Error) => void process.stderr.write(`${error.message}\n`))
          .finally(() => (restarting = undefined));
      }
    });
    const deadline = Date.now() + (spec.startTimeoutMs ?? 15_000);
    while (!(await spec.answers())) {
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) throw new Error(`${spec.name} did not start on ${spec.url}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    answered = true;
  };
  const stop = async () => {
    // A restart in flight ends first (the server answers, or it gives up): else its wait would outlive the stop.
    await restarting;
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    stopping = true;
    running.kill('SIGTERM');
    await new Promise((resolve) => running.once('exit', resolve));
    stopping = false;
  };
  await start();
  return {
    url: spec.url,
    dataDir: spec.dataDir,
    get pid() {
      return server && server.exitCode === null && server.signalCode === null ? server.pid : undefined;
    },
    start,
    stop,
    expectExit: () => {
      stopping = true;
    },
    destroy: async () => {
      await stop();
      rmSync(spec.dataDir, { recursive: true, force: true });
      if (spec.logFile && !crashed) rmSync(spec.logFile, { force: true });
    },
  };
}
