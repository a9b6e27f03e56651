import { ConfigError } from '@platform/config';
import { createLogger } from '@platform/logging';

/**
 * A process started by our supervisor (npm start, the test stack) goes down with it, even when the
 * supervisor is killed without a chance to stop its children.
 */
function exitWithSupervisor(): void {
  const supervisor = Number(process.env.SUPERVISOR_PID);
  if (!Number.isInteger(supervisor) || supervisor <= 0) return;
  const watch = setInterval(() => {
    try {
      process.kill(supervisor, 0);
    } catch {
      process.kill(process.pid, 'SIGTERM');
    }
  }, 2_000);
  watch.unref();
}

/** Runs an entry point; a bad config or a failed start stops the process with a message that says why. */
export function runMain(app: string, main: () => Promise<void>): void {
  exitWithSupervisor();
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${app}: ${error.message}\n`);
    } else {
      createLogger(app).fatal({ err: error }, 'failed to start');
    }
    process.exit(1);
  });
}
