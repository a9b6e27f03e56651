import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxRelayModule, ServiceCoreModule } from '@platform/service';
import { DOMAINS_SCHEMA } from '../domains-schema';
import { DomainsRelayConfig } from './domains-relay.config';

/** Publishes the domains outbox (`domain.*` events) to JetStream; replicas share it with SKIP LOCKED. */
@Module({})
export class DomainsRelayModule {
  static forRoot(config: DomainsRelayConfig): DynamicModule {
    return {
      module: DomainsRelayModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'domains-relay', config, database: true }),
        NatsConnectionModule.forRoot('domains-relay'),
        OutboxRelayModule.forSchema(DOMAINS_SCHEMA, 'domains-relay'),
      ],
    };
  }
}
