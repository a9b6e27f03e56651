import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { counter, PeriodicJob } from '@platform/service';
import { RecoveriesRepository } from './recoveries.repository';
import { RedeliveryService } from './redelivery.service';

const POLL_INTERVAL_MS = 1_000;
/** A running recovery renews this after every page; a replica that died lets it end, and another takes over. */
const LEASE_MS = 60_000;

const recoveryRuns = counter('webhook_recoveries_total', 'Recoveries run in the background, by outcome: finished, failed, handed over (shutdown)', ['outcome']);

/** Runs queued recoveries in the background, one at a time per replica, each claimed under a lease. */
@Injectable()
export class RecoveryRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RecoveryRunner');
  private readonly job = new PeriodicJob(() => this.runQueued(), POLL_INTERVAL_MS, { runAtStart: true, name: 'webhook-recoveries', owner: 'webhooks' });

  constructor(
    private readonly recoveries: RecoveriesRepository,
    private readonly redelivery: RedeliveryService,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async runQueued(): Promise<void> {
    while (!this.job.stopping) {
      const recovery = await this.recoveries.claim(LEASE_MS).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not look for queued recoveries; the next poll tries again');
        return undefined;
      });
      if (!recovery) return;
      try {
        const done = await this.redelivery.runRecovery(recovery, () => !this.job.stopping, () => this.recoveries.renew(recovery.id, LEASE_MS));
        if (!done) {
          recoveryRuns.inc({ outcome: 'handed_over' });
          return;
        }
        await this.recoveries.finish(recovery.id, 'finished');
        recoveryRuns.inc({ outcome: 'finished' });
      } catch (error) {
        this.logger.error({ err: error, recoveryId: recovery.id }, 'a recovery failed');
        recoveryRuns.inc({ outcome: 'failed' });
        await this.recoveries.finish(recovery.id, 'failed').catch(() => undefined);
      }
    }
  }
}
