import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxRelayModule, ServiceCoreModule } from '@platform/service';
import { TABLES_SCHEMA } from '../tables-schema';
import { TablesRelayConfig } from './tables-relay.config';

/** Publishes the tables outbox to JetStream; it answers no requests, so it runs beside any number of its own replicas. */
@Module({})
export class TablesRelayModule {
  static forRoot(config: TablesRelayConfig): DynamicModule {
    return {
      module: TablesRelayModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'tables-relay', config, database: true }),
        NatsConnectionModule.forRoot('tables-relay'),
        OutboxRelayModule.forSchema(TABLES_SCHEMA, 'tables-relay'),
      ],
    };
  }
}
