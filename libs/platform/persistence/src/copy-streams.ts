import { once } from 'node:events';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Sql } from './database';

/** A `COPY (...) TO STDOUT` running on a transaction's connection. */
export interface CopyOut {
  /** Its output as it streams, with backpressure: the server waits while nobody reads. */
  readonly output: Readable;
  /** Resolves when the server has sent everything, rejects when the COPY failed. */
  readonly ended: Promise<void>;
  /**
   * Ends it early: cancels it through `db` (another connection) and lets its output run out, so that its
   * connection can run the transaction's rollback. A COPY left paused would hold its connection forever.
   */
  abandon(db: Sql): Promise<void>;
}

/** Starts a `COPY (...) TO STDOUT` in the transaction `tx`, which Database hands its pool connection. */
export function copyOut(tx: Sql, statement: string): CopyOut {
  if (!(tx instanceof pg.Client)) throw new Error('a COPY streams on a transaction of Database, not on the pool');
  const output = tx.query(copyTo(statement));
  // The server process of the connection, as its start-up told it (not in pg's type declarations).
  const backend = (tx as pg.Client & { processID: number }).processID;
  const ended = once(output, 'end').then(() => undefined);
  // Whoever awaits `ended` sees the failure; until then it must not count as unhandled.
  ended.catch(() => undefined);
  return {
    output,
    ended,
    async abandon(db: Sql) {
      if (output.readableEnded || output.errored) return;
      output.unpipe();
      await db.query('SELECT pg_cancel_backend($1)', [backend]);
      output.resume();
      await ended.catch(() => undefined);
    },
  };
}
