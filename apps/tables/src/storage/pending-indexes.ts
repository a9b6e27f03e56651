import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database, isPgError, PgErrorCode, Sql } from '@platform/persistence';
import { counter, PeriodicJob } from '@platform/service';
import { TABLES_SCHEMA } from '../tables-schema';
import { FieldIndex } from './rows-ddl';

const BUILD_INTERVAL_MS = 1_000;
const PENDING_TABLE = `${TABLES_SCHEMA}.pending_indexes`;

const builds = counter('tables_index_builds_total', 'Indexes of added fields built in the background, by outcome: built, gone (field or table removed), failed', ['outcome']);

/**
 * Gives back the session's advisory locks before its connection returns to the pool. A change that
 * cancels a build may cancel the statement after it too (a cancel lands on whatever runs when it
 * arrives), so this is tried again rather than leave the table locked on a pooled connection.
 */
async function releaseSessionLocks(session: Sql): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await session.query('SELECT pg_advisory_unlock_all()');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Records, in the caller's transaction, the read indexes new fields need. */
export async function recordPendingIndexes(db: Sql, tableId: string, indexes: readonly FieldIndex[]): Promise<void> {
  if (indexes.length === 0) return;
  await db.query(
    `INSERT INTO ${PENDING_TABLE} (index_name, table_id, field_id, definition)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[]) ON CONFLICT (index_name) DO NOTHING`,
    [indexes.map((i) => i.name), indexes.map(() => tableId), indexes.map((i) => i.fieldId), indexes.map((i) => i.definition)],
  );
}

/** The lock a build holds on its table for its session, and a change of the table's columns for its transaction. */
function tableBuildLock(tableId: string): string {
  return `tables.index-builds:${tableId}`;
}

/**
 * Makes the background index builds of a table give way to a change that must lock it (in the caller's
 * transaction): an ALTER waiting behind a build of minutes would queue every read and write of the table
 * behind it, and a build waits for the change's transaction in turn (a deadlock). Cancels whatever the
 * builder holding the table's build lock runs, and takes that lock until commit, so no other build starts
 * meanwhile; it never waits on the lock itself. A cancelled build leaves an invalid index, which the next
 * build replaces.
 */
export async function yieldIndexBuilds(db: Sql, tableId: string): Promise<void> {
  const key = tableBuildLock(tableId);
  for (;;) {
    const { rows: [lock] } = await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`, [key]);
    if (lock.locked) return;
    // The builder holding the table's lock, whatever it runs: a build, the drop of a half-built index
    // (which waits for this transaction if it has read the table), or its bookkeeping.
    await db.query(
      `SELECT pg_cancel_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND pid <> pg_backend_pid()
         AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
      [key],
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Forgets, in the caller's transaction, the pending indexes of removed fields. */
export async function forgetPendingIndexes(db: Sql, fieldIds: readonly string[]): Promise<void> {
  if (fieldIds.length === 0) return;
  await db.query(`DELETE FROM ${PENDING_TABLE} WHERE field_id = ANY($1::uuid[])`, [fieldIds]);
}

/** Forgets, in the caller's transaction, one pending index (of a field that no longer wants it). */
export async function forgetPendingIndex(db: Sql, indexName: string): Promise<void> {
  await db.query(`DELETE FROM ${PENDING_TABLE} WHERE index_name = $1`, [indexName]);
}

/**
 * Builds the indexes of added fields after their change committed, one at a time per replica, each with
 * CREATE INDEX CONCURRENTLY, which lets rows be written meanwhile. A session advisory lock on the table
 * keeps replicas from building on it at once and gives way to changes of its columns; it ends with the
 * session, so a builder that dies frees it, and the next one drops the invalid index a crash mid-build
 * leaves and builds it again.
 */
@Injectable()
export class PendingIndexes implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingIndexes');
  private readonly job = new PeriodicJob(() => this.buildAll(), BUILD_INTERVAL_MS, { runAtStart: true, name: 'pending-index-builds', owner: 'tables' });

  constructor(private readonly db: Database) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async buildAll(): Promise<void> {
    try {
      while (!this.job.stopping && (await this.db.session((session) => this.buildOne(session)))) {
        // One index per session: each build gets a fresh connection and gives it back to the pool.
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not build pending indexes; the next run tries again');
    }
  }

  /**
   * Builds one pending index this replica could lock; answers whether to go on with the next: not when
   * there was none, nor after a failure (a cancelled build gives way to a change of its table until the
   * next run, instead of taking the table's lock straight back).
   */
  private async buildOne(session: Sql): Promise<boolean> {
    const { rows } = await session.query<{ index_name: string; table_id: string; definition: string }>(
      `SELECT index_name, table_id, definition FROM ${PENDING_TABLE} ORDER BY attempts, created_at LIMIT 20`,
    );
    for (const pending of rows) {
      // One build per table at a time, and none while a change of its columns is under way.
      const key = tableBuildLock(pending.table_id);
      const { rows: [lock] } = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [key]);
      if (!lock.locked) continue;
      try {
        return await this.build(session, pending.index_name, pending.definition);
      } finally {
        await releaseSessionLocks(session);
      }
    }
    return false;
  }

  private async build(session: Sql, name: string, definition: string): Promise<boolean> {
    try {
      const { rows: [leftover] } = await session.query<{ valid: boolean }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relname = $2`,
        [TABLES_SCHEMA, name],
      );
      // Half-built by a builder that died: IF NOT EXISTS would keep it as it is.
      if (leftover && !leftover.valid) await session.query(`DROP INDEX CONCURRENTLY IF EXISTS ${TABLES_SCHEMA}."${name}"`);
      // A large table's index takes longer than a request's statement timeout.
      await session.query('SET statement_timeout = 0');
      try {
        await session.query(`CREATE INDEX CONCURRENTLY ${definition}`);
      } finally {
        await session.query('RESET statement_timeout');
      }
      await session.query(`DELETE FROM ${PENDING_TABLE} WHERE index_name = $1`, [name]);
      builds.inc({ outcome: 'built' });
      return true;
    } catch (error) {
      if (isPgError(error, PgErrorCode.UndefinedTable, PgErrorCode.UndefinedColumn)) {
        await session.query(`DELETE FROM ${PENDING_TABLE} WHERE index_name = $1`, [name]);
        builds.inc({ outcome: 'gone' });
        return true;
      }
      builds.inc({ outcome: 'failed' });
      this.logger.warn({ err: error, index: name }, 'could not build an index of an added field; it is tried again');
      const recorded = `UPDATE ${PENDING_TABLE} SET attempts = attempts + 1, last_error = $2 WHERE index_name = $1`;
      await session.query(recorded, [name, String((error as Error).message)]).catch(() => undefined);
      return false;
    }
  }
}
