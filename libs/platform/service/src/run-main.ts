import { ConfigError } from '@platform/config';
import { createLogger } from '@platform/logging';

/** Runs an entry point; a bad config or a failed start stops the process with a message that says why. */
export function runMain(app: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${app}: ${error.message}\n`);
    } else {
      createLogger(app).fatal({ err: error }, 'failed to start');
    }
    process.exit(1);
  });
}
