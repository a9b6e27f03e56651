import type { Logger } from 'pino';
import type { HealthChecks } from './health/health-checks';

/**
 * On SIGTERM or SIGINT: report not-ready, stop taking work and close connections (Nest's shutdown hooks,
 * run by `close`), then exit 0. A shutdown that outlives the grace period exits 1.
 */
export function exitGracefully(close: () => Promise<void>, logger: Logger, timeoutMs: number, health?: HealthChecks): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    health?.markShuttingDown();
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    try {
      await close();
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
