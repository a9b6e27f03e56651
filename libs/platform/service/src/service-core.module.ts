import { DynamicModule, Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { ServiceConfig } from '@platform/config';
import { loggingModule } from '@platform/logging';
import { dataSourceOptions, SchemaOwner } from '@platform/persistence';
import { DataSource } from 'typeorm';
import { HealthModule } from './health.module';
import { Readiness } from './readiness';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

export interface ServiceCoreOptions {
  name: string;
  config: ServiceConfig;
  /** The context's own schema; omit for a process without a database. */
  database?: Omit<SchemaOwner, 'url' | 'poolSize'>;
}

import { Injectable } from '@nestjs/common';
@Injectable()
class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', async () => {
      await this.dataSource.query('SELECT 1');
    });
  }
}

/** Logging, probes and metrics, the validated config and, when asked, the context's database. */
@Module({})
export class ServiceCoreModule {
  static forRoot(options: ServiceCoreOptions): DynamicModule {
    const { name, config, database } = options;
    const imports: DynamicModule['imports'] = [loggingModule(name, config.LOG_LEVEL), HealthModule];
    const providers: DynamicModule['providers'] = [
      { provide: SERVICE_CONFIG, useValue: config },
      { provide: config.constructor, useValue: config },
    ];
    if (database) {
      imports.push(
        TypeOrmModule.forRoot({
          ...dataSourceOptions({ ...database, url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: name }),
          autoLoadEntities: true,
        }),
      );
      providers.push(DatabaseReadiness);
    }
    return {
      module: ServiceCoreModule,
      global: true,
      imports,
      providers,
      exports: [SERVICE_CONFIG, config.constructor as never],
    };
  }
}
