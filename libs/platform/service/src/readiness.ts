import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<void> | void;

/** Modules register what must answer before the process takes traffic (database, NATS, Redis). */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private shuttingDown = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async report(timeoutMs = 2_000): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const checks: Record<string, string> = {};
    if (this.shuttingDown) return { ready: false, checks: { process: 'shutting down' } };
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(check),
            new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), timeoutMs))),
          ]);
          checks[name] = 'up';
        } catch (error) {
          checks[name] = `down: ${(error as Error).message}`;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { ready: Object.values(checks).every((state) => state === 'up'), checks };
  }
}
