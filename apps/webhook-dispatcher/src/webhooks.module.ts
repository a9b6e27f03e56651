import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, ServiceCoreModule } from '@platform/service';
import { DispatcherCoreModule } from './dispatcher-core.module';
import { EventFanOut } from './dispatch/event-fan-out';
import { QueueDepthReporter } from './delivery/queue-depth.reporter';
import { WebhooksApiConfig } from './webhooks.config';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';

/** The API process: webhook management over NATS request-reply, and the event fan-out unless turned off. */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksApiConfig): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'webhooks', config, database: { schema: WEBHOOKS_SCHEMA } }),
        DispatcherCoreModule.forRoot(config),
        ...(config.WEBHOOK_CONSUMER_ENABLED ? [NatsConnectionModule.forRoot('webhooks')] : []),
      ],
      controllers: [WebhooksController],
      providers: [WebhooksService, QueueDepthReporter, ...(config.WEBHOOK_CONSUMER_ENABLED ? [EventFanOut] : [])],
    };
  }
}
