import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { dataSourceOptions, SchemaOwner } from './data-source-options';
import { quoteIdent } from './identifiers';
import { isPgError, PgErrorCode } from './pg-errors';

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`).catch((error: unknown) => {
        // Created meanwhile by another process.
        if (!isPgError(error, PgErrorCode.DuplicateDatabase, PgErrorCode.UniqueViolation)) throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Runs a context's pending migrations inside its own schema. An advisory lock per schema lets several
 * processes (replicas, the migration job, tests) call this at once safely.
 *
 * The DataSource is TypeORM's, made by `TypeOrmModule` in a short-lived Nest application context of its
 * own (two connections at most), which is closed before this returns: the services keep their one pool,
 * `Database`, and never hold a TypeORM connection. TypeORM is loaded here, on the first migration, not
 * by every process that imports this library: it is about 300 modules the services never run.
 */
export async function migrateSchema(owner: SchemaOwner): Promise<string[]> {
  await ensureDatabase(owner.url);
  if (await isUpToDate(owner)) return [];
  const [{ NestFactory }, { getDataSourceToken, TypeOrmModule }] = await Promise.all([import('@nestjs/core'), import('@nestjs/typeorm')]);
  const migrations = await NestFactory.createApplicationContext(
    TypeOrmModule.forRootAsync({
      // Fails at once, as a migration job should, rather than retrying for half a minute.
      useFactory: () => ({ ...dataSourceOptions(owner), retryAttempts: 0, toRetry: () => false }),
    }),
    // Silent: the callers (migrate.ts, the admin command line) print only their JSON result.
    { logger: false, abortOnError: false },
  );
  try {
    const dataSource = migrations.get<DataSource>(getDataSourceToken());
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${owner.schema}`]);
      await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(owner.schema)}`);
      const done = await dataSource.runMigrations({ transaction: 'each' });
      return done.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${owner.schema}`]).catch(() => undefined);
      await runner.release();
    }
  } finally {
    await migrations.close();
  }
}

/**
 * True when every migration of the schema is recorded as run: then neither TypeORM nor Nest is loaded, so
 * a command that migrates before its work (the admin command line) answers in a fraction of a second.
 */
async function isUpToDate(owner: SchemaOwner): Promise<boolean> {
  const client = new Client({ connectionString: owner.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${quoteIdent(owner.schema)}.migrations`);
    const done = new Set(rows.map((row) => row.name));
    // TypeORM records a migration by its `name`, or its class name without one; a glob path cannot be told here.
    const classes = Object.values(owner.migrations ?? {});
    return classes.every((migration) => typeof migration === 'function' && done.has(new (migration as new () => { name?: string })().name ?? migration.name));
  } catch (error) {
    if (isPgError(error, PgErrorCode.UndefinedTable)) return false;
    throw error;
  } finally {
    await client.end();
  }
}
