import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, ServiceCoreModule } from '@platform/service';
import { DispatcherCoreModule } from './dispatcher-core.module';
import { DeliveryQueueHealthIndicator } from './delivery/delivery-queue.indicator';
import { DeliveryWebhooks } from './delivery/delivery-webhooks';
import { DeliveryWorker } from './delivery/delivery-worker';
import { DeliveryProcessor } from './delivery/delivery.processor';
import { InFlightLeases } from './delivery/in-flight-leases';
import { ParkedJobsSweeper } from './delivery/parked-jobs.sweeper';
import { WorkerSlots } from './delivery/worker-slots';
import { WebhooksWorkerConfig } from './webhooks.config';

/** The delivery worker process: no request handlers, only the queue (and NATS for the announcements of changed webhooks). */
@Module({})
export class WorkerModule {
  static forRoot(config: WebhooksWorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'webhooks-worker', config, database: true }),
        DispatcherCoreModule.forRoot(config),
        // Core NATS only, for the announcements of changed webhooks, which the webhooks its attempts hold are forgotten by.
        NatsConnectionModule.forRoot('webhooks-worker', { eventsStream: false }),
      ],
      providers: [InFlightLeases, WorkerSlots, ParkedJobsSweeper, DeliveryWebhooks, DeliveryProcessor, DeliveryWorker, DeliveryQueueHealthIndicator],
    };
  }
}
