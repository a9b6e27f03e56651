import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DependencyIndicator, HealthChecks } from '@platform/service';
import { DeliveryWorker } from './delivery-worker';

/** The worker process is ready while its BullMQ worker takes delivery jobs. */
@Injectable()
export class DeliveryQueueHealthIndicator extends DependencyIndicator {
  protected readonly key = 'delivery-queue';

  constructor(
    indicators: HealthIndicatorService,
    checks: HealthChecks,
    private readonly worker: DeliveryWorker,
  ) {
    super(indicators, checks);
  }

  protected probe(): Promise<void> {
    return this.worker.probe();
  }
}
