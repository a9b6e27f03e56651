import { DataSourceOptions } from 'typeorm';

export interface SchemaOwner {
  /** The Postgres schema this context owns; nothing else writes to it. */
  schema: string;
  url: string;
  migrations: DataSourceOptions['migrations'];
}

/** TypeORM runs the migrations only; the services query through their `Database`. */
export function dataSourceOptions(owner: SchemaOwner): DataSourceOptions {
  return {
    type: 'postgres',
    url: owner.url,
    schema: owner.schema,
    migrations: owner.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: `migrate-${owner.schema}`,
    extra: { max: 2, connectionTimeoutMillis: 5_000 },
  };
}
