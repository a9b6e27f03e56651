import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { IDENTITY_SCHEMA, IdentityStore } from '@identity';
import { IdempotencyPruner } from './idempotency/idempotency-pruner';
import { IdempotencyRepository } from './idempotency/idempotency.repository';
import { Database } from '@platform/persistence';
import { NatsConnectionModule, OutboxRelayModule, RedisModule, ServiceCoreModule } from '@platform/service';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { RateLimiter } from './auth/rate-limiter';
import { BusModule } from './bus/bus.module';
import { GatewayConfig } from './gateway.config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'gateway', config, database: true }),
        NatsConnectionModule.forRoot('gateway'),
        // Rate-limit counters: while Redis is away each replica counts in memory instead (RateLimiter).
        RedisModule.forRoot('request-path'),
        // Member events written by the admin tool leave through the gateway's outbox; they are rare, so
        // a quarter second is soon enough and keeps the idle polling off the request path.
        OutboxRelayModule.forSchema(IDENTITY_SCHEMA, 'gateway', { idleMs: 250 }),
        BusModule,
      ],
      providers: [
        { provide: IdentityStore, inject: [Database], useFactory: (db: Database) => new IdentityStore(db) },
        ApiKeyAuthenticator,
        RateLimiter,
        IdempotencyRepository,
        IdempotencyPruner,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
