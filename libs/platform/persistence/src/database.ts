import type { ClientBase, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { beginCommitHooks, endCommitHooks } from './commit-hooks';
import { runRecurring } from './recurring-statements';
import { ScopedPool } from './scoped-pool';

/**
 * A statement of fixed text that runs often: each connection parses and plans it once under its name and
 * then only binds and runs it (the planning of a batch's INSERT cost Postgres about as much as running it).
 * Only for text that never changes with the data, since each name stays prepared for its connection's life.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** What a repository runs its statements on: the database itself, or one transaction of it. */
export interface Sql {
  query<R extends QueryResultRow = Record<string, unknown>>(text: string | PreparedStatement, values?: unknown[]): Promise<QueryResult<R>>;
}

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  /** Fraction of the pool one organization's requests may hold at once while others are active (see `ScopedPool`). */
  organizationShare: number;
  /** The same while no other organization is active; `organizationShare` when not given. */
  organizationShareAlone?: number;
  /** Shown in pg_stat_activity, so an operator sees which process holds a connection. */
  applicationName: string;
  /** Postgres's `max_parallel_workers_per_gather` for every connection of the pool; the server's own when not given. */
  parallelWorkersPerQuery?: number;
}

export interface TransactionOptions {
  /**
   * `false`: the commit returns without waiting for its WAL to reach the disk, so a crash of Postgres may
   * undo it (never half of it, never out of order). Only for a transaction that is repeated, with the same
   * effect, when it is undone: a relay's, whose events come back to the outbox and are published again,
   * which JetStream drops as duplicates. Saves the transaction its wait for the disk and Postgres a flush.
   */
  synchronousCommit?: false;
  /**
   * A statement of fixed text, without parameters, that opens the transaction: it travels in the same
   * round trip as BEGIN (a simple query of several statements) and `work` gets its rows. For a transaction
   * that runs often and always starts with the same statement (a relay's take), one round trip fewer.
   */
  opening?: string;
}

/**
 * The process's one Postgres pool. Every statement acquires its connection in `withConnection`, from
 * the `ScopedPool`: inside a request that is its organization's share of the pool, with the request's
 * deadline as the statement timeout.
 */
export class Database implements Sql {
  private readonly pool: ScopedPool;

  constructor(private readonly options: DatabaseOptions) {
    this.pool = new ScopedPool({
      connectionString: options.url,
      max: options.poolSize,
      organizationShare: options.organizationShare,
      organizationShareAlone: options.organizationShareAlone,
      application_name: options.applicationName,
      connectionTimeoutMillis: 5_000,
      // A statement that runs away must not hold a connection forever; a request's deadline shortens it.
      statement_timeout: 30_000,
      idle_in_transaction_session_timeout: 60_000,
      options: options.parallelWorkersPerQuery === undefined ? undefined : `-c max_parallel_workers_per_gather=${options.parallelWorkersPerQuery}`,
    });
    // An idle connection the server drops (restart, failover) must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor may one that breaks while checked out but between statements (pg emits 'error' on the client
    // then, and the pool listens only to idle ones): its next statement fails, which its caller sees,
    // and the pool drops it when it is released.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  query<R extends QueryResultRow = Record<string, unknown>>(text: string | PreparedStatement, values?: unknown[]): Promise<QueryResult<R>> {
    return this.withConnection((client) => client.query<R>(text, values));
  }

  /**
   * Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. `work`
   * gets the rows of the options' `opening` statement (none without one).
   */
  transaction<T, O extends QueryResultRow = QueryResultRow>(work: (tx: Sql, opened: O[]) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const { synchronousCommit, opening } = options;
    return this.withConnection(async (client) => {
      beginCommitHooks(client);
      let result: T;
      try {
        // One round trip whatever the options: the statements travel in one simple query, which answers each
        // one's result in order. An opening that fails leaves the transaction open and aborted: rolled back below.
        const opened = await client.query<O>(['BEGIN', synchronousCommit === false && 'SET LOCAL synchronous_commit TO off', opening].filter(Boolean).join('; '));
        result = await work(client, opening ? (opened as unknown as Array<QueryResult<O>>).at(-1)!.rows : []);
        await client.query('COMMIT');
      } catch (error) {
        endCommitHooks(client, false);
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      endCommitHooks(client, true);
      return result;
    });
  }

  /**
   * Runs `work` on one connection of the pool outside any transaction, for statements that cannot run in
   * one (CREATE INDEX CONCURRENTLY) and for session advisory locks, which end with the session's work.
   */
  session<T>(work: (client: Sql) => Promise<T>): Promise<T> {
    return this.withConnection(work);
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async withConnection<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }
}

/**
 * Runs a statement of built text that recurs with the data's shape (a table's fields) prepared on the
 * connection it runs on (runRecurring): one of the database's, or the transaction's own.
 */
export function queryRecurring<R extends QueryResultRow = Record<string, unknown>>(db: Sql, text: string, values?: unknown[]): Promise<QueryResult<R>> {
  if (db instanceof Database) return db.session((client) => runRecurring<R>(client as ClientBase, text, values));
  return runRecurring<R>(db as ClientBase, text, values);
}
