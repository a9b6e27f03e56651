import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, ServiceCoreModule } from '@platform/service';
import { DispatcherCoreModule } from './dispatcher-core.module';
import { EventFanOut } from './dispatch/event-fan-out';
import { WebhookAims } from './dispatch/webhook-aims';
import { ActiveSubscriptions } from './dispatch/active-subscriptions';
import { AimRechecks } from './webhooks/aim-rechecks';
import { EventRetention } from './event-store/event-retention';
import { RedeliveryService } from './event-store/redelivery.service';
import { RecoveriesRepository } from './event-store/recoveries.repository';
import { RecoveryRunner } from './event-store/recovery-runner';
import { SeriesReconciler } from './event-store/series-reconciler';
import { EventsConsumerHealthIndicator } from './dispatch/events-consumer.indicator';
import { QueueDepthReporter } from './delivery/queue-depth.reporter';
import { WebhooksApiConfig } from './webhooks.config';
import { WebhooksHandlers } from './webhooks/webhooks.handlers';
import { OrganizationTables } from './webhooks/organization-tables';
import { WebhooksService } from './webhooks/webhooks.service';
import { WebhookPurger } from './webhooks/webhook-purger';
import { WebhookPurgesRepository } from './webhooks/webhook-purges.repository';

/** The API process: webhook management over NATS request-reply, and the event fan-out unless turned off. */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksApiConfig): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'webhooks', config, database: true }),
        DispatcherCoreModule.forRoot(config),
        // For the consumer, and for asking the tables context which tables a webhook may be narrowed to.
        NatsConnectionModule.forRoot('webhooks'),
      ],
      providers: [
        WebhooksHandlers,
        WebhooksService,
        OrganizationTables,
        RedeliveryService,
        RecoveriesRepository,
        RecoveryRunner,
        QueueDepthReporter,
        EventRetention,
        SeriesReconciler,
        WebhookPurgesRepository,
        WebhookPurger,
        ...(config.WEBHOOK_CONSUMER_ENABLED ? [EventFanOut, ActiveSubscriptions, WebhookAims, AimRechecks, EventsConsumerHealthIndicator] : []),
      ],
    };
  }
}
