import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { Readiness } from './readiness';

/**
 * On SIGTERM or SIGINT: report not-ready, let Nest stop consumers and close connections in its
 * shutdown hooks, then exit 0. A shutdown that outlives the grace period exits 1.
 */
export function exitGracefully(app: INestApplicationContext, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    try {
      app.get(Readiness, { strict: false })?.markShuttingDown();
    } catch {
      // an app without the health module has nothing to mark
    }
    try {
      await app.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
