import { DynamicModule, Module } from '@nestjs/common';
import type { ServiceConfig } from '@platform/config';
import { Database } from '@platform/persistence';
import { connectionModule } from './connection.module';

/** The process's `Database` (its one Postgres pool) and its readiness check; the pool closes at shutdown. */
@Module({})
export class DatabaseModule {
  static forRoot(name: string): DynamicModule {
    return connectionModule(DatabaseModule, {
      token: Database,
      key: 'database',
      open: (config: ServiceConfig) =>
        new Database({
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          organizationShare: config.DATABASE_POOL_ORGANIZATION_SHARE,
          organizationShareAlone: config.DATABASE_POOL_ORGANIZATION_SHARE_ALONE,
          parallelWorkersPerQuery: config.DATABASE_PARALLEL_WORKERS_PER_QUERY,
          applicationName: name,
        }),
      probe: (database) => database.ping(),
      close: (database) => database.close(),
    });
  }
}
