import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { DeliveryQueue } from './delivery-queue';
import { queueDepth } from './delivery-metrics';

const STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** Samples the delivery queue's job counts into a gauge for Prometheus. */
@Injectable()
export class QueueDepthReporter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly job = new PeriodicJob(
    () =>
      this.deliveryQueue.queue.getJobCounts(...STATES).then(
        (counts) => STATES.forEach((state) => queueDepth.set({ state }, counts[state] ?? 0)),
        () => undefined,
      ),
    5_000,
    { name: 'delivery-queue-depth', owner: 'webhooks' },
  );

  constructor(private readonly deliveryQueue: DeliveryQueue) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** A sample in flight is not waited for: it is only a gauge, and Redis may be why the process stops. */
  onApplicationShutdown(): void {
    void this.job.stop();
  }
}
