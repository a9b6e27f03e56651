import pg from 'pg';
import { OrganizationShares } from './organization-shares';
import { currentQueryScope, DeadlineExceededError, QueryScope } from './query-scope';

export interface ScopedPoolConfig extends pg.PoolConfig {
  /** Fraction of the pool one organization may hold at once while others are active (0..1]. */
  organizationShare?: number;
  /** Fraction of the pool one organization may hold while no other is active (at least `organizationShare`). */
  organizationShareAlone?: number;
}

type Release = (error?: Error | boolean) => void;
type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: Release) => void;

/** The statement_timeout a request left on a connection's session: work outside a request restores it. */
const shortened = new WeakMap<pg.PoolClient, number>();

/** Request timeouts are set in steps of at most this many ms (and 5% of the time left), so that back-to-back requests find theirs already set. */
export const STATEMENT_TIMEOUT_STEP_MS = 250;

/**
 * The statement_timeout for a request with `remainingMs` left: never past its deadline, at most one step
 * (250 ms, or 5% of the time left) before it, and the same value for every request with about as long
 * left, so that a connection handed from one request to the next keeps it without another `SET`.
 */
export function statementTimeoutFor(remainingMs: number): number {
  const step = stepFor(remainingMs);
  return step <= 1 ? remainingMs : Math.floor(remainingMs / step) * step;
}

function stepFor(remainingMs: number): number {
  return Math.min(STATEMENT_TIMEOUT_STEP_MS, Math.floor(remainingMs / 20));
}

/**
 * Whether a connection's statement_timeout still serves a request with `remainingMs` left: not past its
 * deadline and at most two steps before it. The second step is what keeps one value across a step's
 * edge: requests that arrive with 10,000 ms left and with 9,999 would otherwise set 10,000 and 9,750 in
 * turn, one more round trip to Postgres for each.
 */
export function keepsStatementTimeout(current: number, remainingMs: number): boolean {
  return current <= remainingMs && current > remainingMs - 2 * Math.max(1, stepFor(remainingMs));
}

/**
 * The pool every context queries through (TypeORM's and plain SQL alike). Work in a query scope (a
 * request) first takes a connection from its organization's share, then gets a connection whose
 * `statement_timeout` is the time its caller still waits: Postgres cancels the SQL when the caller
 * gives up, and never runs past it. Work outside a scope (relays, background jobs, migrations) runs
 * with the configured timeout.
 */
export class ScopedPool extends pg.Pool {
  readonly shares: OrganizationShares;
  private readonly longestStatementMs: number;

  constructor(config: ScopedPoolConfig = {}) {
    const { organizationShare = 1, organizationShareAlone = organizationShare, ...poolConfig } = config;
    super(poolConfig);
    const size = poolConfig.max ?? 10;
    const connections = (share: number) => Math.max(1, Math.floor(size * share));
    this.shares = new OrganizationShares(size, connections(organizationShare), connections(organizationShareAlone));
    this.longestStatementMs = poolConfig.statement_timeout || Number.MAX_SAFE_INTEGER;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const checkout = this.checkout(currentQueryScope());
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  private async checkout(scope: QueryScope | undefined): Promise<pg.PoolClient> {
    if (!scope) {
      const client = await super.connect();
      if (shortened.has(client)) await this.prepare(client, 'SET statement_timeout TO DEFAULT');
      shortened.delete(client);
      return client;
    }
    const giveShareBack = await this.shares.acquire(scope.organizationId, scope.deadline);
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      giveShareBack();
      throw error;
    }
    const release = client.release;
    client.release = (error?: Error | boolean) => {
      giveShareBack();
      release(error);
    };
    const remaining = Math.ceil(scope.deadline - Date.now());
    if (remaining <= 0) {
      client.release();
      throw new DeadlineExceededError();
    }
    const bound = Math.min(remaining, this.longestStatementMs);
    const current = shortened.get(client);
    if (current === undefined || !keepsStatementTimeout(current, bound)) {
      const timeout = statementTimeoutFor(bound);
      await this.prepare(client, `SET statement_timeout = ${timeout}`);
      shortened.set(client, timeout);
    }
    return client;
  }

  /** A connection that fails its set-up is dropped, not handed out. */
  private async prepare(client: pg.PoolClient, sql: string): Promise<void> {
    try {
      await client.query(sql);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }
}
