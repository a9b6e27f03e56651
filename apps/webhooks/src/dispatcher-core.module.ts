import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from '@platform/service';
import { DeliveryQueue } from './delivery/delivery-queue';
import { PinnedAgents } from './delivery/pinned-agents';
import { WebhookSender } from './delivery/webhook-sender';
import { SecretCipher } from './secrets/secret-cipher';
import { encryptionKeyFrom } from './secrets/secret-encryption-key';
import { keptLookup, serverLookup, systemLookup } from './targets/host-lookup';
import { TargetResolver } from './targets/target-resolver';
import { WebhooksConfig } from './webhooks.config';
import { DeliveriesRepository } from './webhooks/deliveries.repository';
import { EventStoreRepository } from './event-store/event-store.repository';
import { OperationalEvents } from './webhooks/operational-events';
import { SubscriptionChanges } from './webhooks/subscription-changes';
import { WebhooksRepository } from './webhooks/webhooks.repository';

/**
 * What the API and the worker processes share: storage, the secret cipher, the sender, the queue and the
 * announcements of changed webhooks (each process imports NatsConnectionModule).
 */
@Module({})
export class DispatcherCoreModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    const providers = [
      { provide: WebhooksConfig, useValue: config },
      { provide: SecretCipher, useFactory: () => new SecretCipher(encryptionKeyFrom(config)) },
      {
        provide: TargetResolver,
        useFactory: () =>
          new TargetResolver(
            config.allowPrivateTargets,
            keptLookup(config.dnsServers.length > 0 ? serverLookup(config.dnsServers) : systemLookup, config.WEBHOOK_DNS_CACHE_MS),
          ),
      },
      { provide: PinnedAgents, useFactory: () => new PinnedAgents(config.WEBHOOK_TIMEOUT_MS) },
      {
        provide: WebhookSender,
        inject: [TargetResolver, PinnedAgents],
        useFactory: (resolver: TargetResolver, agents: PinnedAgents) => new WebhookSender(resolver, agents),
      },
      WebhooksRepository,
      DeliveriesRepository,
      EventStoreRepository,
      DeliveryQueue,
      OperationalEvents,
      SubscriptionChanges,
    ];
    return {
      module: DispatcherCoreModule,
      global: true,
      // The delivery queue's producer side; the worker process opens its own blocking connection as well.
      imports: [RedisModule.forRoot('queue-producer')],
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
