import { DynamicModule, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { ServiceConfig } from '@platform/config';
import { Database } from '@platform/persistence';
import { DependencyIndicator } from './health/dependency.indicator';
import { HealthChecks } from './health/health-checks';
import { SERVICE_CONFIG } from './service-config';

@Injectable()
export class PostgresHealthIndicator extends DependencyIndicator implements OnApplicationShutdown {
  protected readonly key = 'database';

  constructor(
    indicators: HealthIndicatorService,
    checks: HealthChecks,
    private readonly database: Database,
  ) {
    super(indicators, checks);
  }

  protected probe(): Promise<void> {
    return this.database.ping();
  }

  /** The pool closes after everything that used it has stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/** The process's `Database` (its one Postgres pool) and its readiness check. */
@Module({})
export class DatabaseModule {
  static forRoot(name: string): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: Database,
          inject: [SERVICE_CONFIG],
          useFactory: (config: ServiceConfig) =>
            new Database({
              url: config.DATABASE_URL,
              poolSize: config.DATABASE_POOL_SIZE,
              organizationShare: config.DATABASE_POOL_ORGANIZATION_SHARE,
              organizationShareAlone: config.DATABASE_POOL_ORGANIZATION_SHARE_ALONE,
              parallelWorkersPerQuery: config.DATABASE_PARALLEL_WORKERS_PER_QUERY,
              applicationName: name,
            }),
        },
        PostgresHealthIndicator,
      ],
      exports: [Database],
    };
  }
}
