import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { DeliveryQueue } from './delivery-queue';
import { InFlightLeases } from './in-flight-leases';

/** How often a worker wakes parked jobs whose webhook has free slots that no release handed on. */
export const SWEEP_INTERVAL_MS = 2_000;

/**
 * Nothing stays parked for good: slots come free without a release when a worker dies holding them (the
 * lease expires), and a wake-up can miss a job still on its way into the delayed set. Every worker sweeps;
 * the scripts are atomic, so two sweeps at once wake no job twice beyond a harmless repeat.
 */
@Injectable()
export class ParkedJobsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ParkedJobsSweeper');
  private readonly job = new PeriodicJob(
    () => this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'sweep of parked deliveries failed; the next one retries')),
    SWEEP_INTERVAL_MS,
    { name: 'parked-delivery-sweep', owner: 'webhooks' },
  );

  constructor(
    private readonly leases: InFlightLeases,
    private readonly deliveryQueue: DeliveryQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  async sweep(): Promise<void> {
    for (const webhookId of await this.leases.webhooksWithParkedJobs()) await wakeParked(this.leases, this.deliveryQueue, webhookId);
  }
}

/**
 * Wakes the webhook's parked jobs its free slots allow, or at least `atLeast` of them, and runs each woken job
 * now; a job the queue no longer holds is dropped from the webhook's lists.
 */
export async function wakeParked(leases: InFlightLeases, deliveryQueue: DeliveryQueue, webhookId: string, atLeast = 0): Promise<void> {
  for (const jobId of await leases.sweep(webhookId, atLeast)) {
    if (!(await deliveryQueue.promote(jobId))) await leases.forget(webhookId, jobId);
  }
}
