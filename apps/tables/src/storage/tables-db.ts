import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export type Queryable = Pick<PoolClient, 'query'>;

/**
 * Plain SQL over the pool TypeORM already opened for this process: the rows path is one statement per
 * request, so it goes straight to `pg` without an ORM layer in between.
 */
@Injectable()
export class TablesDb {
  /** For single statements outside a transaction. */
  readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  async query<T extends QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.pool.query<T>(sql, params);
    return result.rows;
  }

  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Postgres error codes the service answers on its own terms. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_UNDEFINED_TABLE = '42P01';
export const PG_UNDEFINED_COLUMN = '42703';

export function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}
