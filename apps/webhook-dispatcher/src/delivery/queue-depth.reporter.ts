import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DeliveryQueue } from './delivery-queue';
import { queueDepth } from './delivery-metrics';

const STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** Samples the delivery queue's job counts into a gauge for Prometheus. */
@Injectable()
export class QueueDepthReporter implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(private readonly deliveryQueue: DeliveryQueue) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.deliveryQueue.queue.getJobCounts(...STATES).then(
        (counts) => STATES.forEach((state) => queueDepth.set({ state }, counts[state] ?? 0)),
        () => undefined,
      );
    }, 5_000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
