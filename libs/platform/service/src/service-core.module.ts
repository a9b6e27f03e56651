import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ServiceConfig } from '@platform/config';
import { loggingModule } from '@platform/logging';
import { DatabaseModule } from './database.module';
import { HealthChecksModule } from './health/health.module';
import { SERVICE_CONFIG } from './service-config';

export { SERVICE_CONFIG };

export interface ServiceCoreOptions {
  name: string;
  config: ServiceConfig;
  /** Whether the process uses Postgres; its repositories then get the `Database`. */
  database?: boolean;
}

/** Logging, readiness checks, the validated config and, when asked, the database. */
@Module({})
export class ServiceCoreModule {
  static forRoot(options: ServiceCoreOptions): DynamicModule {
    const { name, config, database } = options;
    // DiscoveryModule: the bootstrap finds the handlers of declared operations among the providers.
    const imports: DynamicModule['imports'] = [loggingModule(name, config.LOG_LEVEL), HealthChecksModule, DiscoveryModule];
    if (database) imports.push(DatabaseModule.forRoot(name));
    return {
      module: ServiceCoreModule,
      global: true,
      imports,
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: config.constructor, useValue: config },
      ],
      exports: [SERVICE_CONFIG, config.constructor as never],
    };
  }
}
