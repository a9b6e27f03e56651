import { DataSourceOptions } from 'typeorm';

export interface SchemaOwner {
  /** The Postgres schema this context owns; nothing else writes to it. */
  schema: string;
  url: string;
  entities?: DataSourceOptions['entities'];
  migrations?: DataSourceOptions['migrations'];
  poolSize?: number;
  applicationName?: string;
}

export function dataSourceOptions(owner: SchemaOwner): DataSourceOptions {
  return {
    type: 'postgres',
    url: owner.url,
    schema: owner.schema,
    entities: owner.entities ?? [],
    migrations: owner.migrations ?? [],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: owner.applicationName,
    extra: {
      max: owner.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      // A statement that runs away must not hold a connection forever.
      statement_timeout: 30_000,
      idle_in_transaction_session_timeout: 60_000,
    },
  };
}
