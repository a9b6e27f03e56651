import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, SchemaOwner } from './data-source-options';

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe identifier: ${name}`);
  return `"${name}"`;
}

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
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Runs a context's pending migrations inside its own schema. An advisory lock per schema lets several
 * processes (replicas, the migration job, tests) call this at once safely.
 */
export async function migrateSchema(owner: SchemaOwner): Promise<string[]> {
  await ensureDatabase(owner.url);
  const dataSource = new DataSource({ ...dataSourceOptions({ ...owner, poolSize: 3 }) });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${owner.schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(owner.schema)}`);
    const done = await dataSource.runMigrations({ transaction: 'each' });
    return done.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${owner.schema}`]).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}

export { quoteIdent };
