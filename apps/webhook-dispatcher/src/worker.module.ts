import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { DispatcherCoreModule } from './dispatcher-core.module';
import { DeliveryWorker } from './delivery/delivery-worker';
import { DeliveryProcessor } from './delivery/delivery.processor';
import { WebhooksWorkerConfig } from './webhooks.config';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

/** The delivery worker process: no request handlers, only the queue. */
@Module({})
export class WorkerModule {
  static forRoot(config: WebhooksWorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'webhooks-worker', config, database: { schema: WEBHOOKS_SCHEMA } }),
        DispatcherCoreModule.forRoot(config),
      ],
      providers: [DeliveryProcessor, DeliveryWorker],
    };
  }
}
