import { Injectable } from '@nestjs/common';
import type { Field } from '../fields/field';
import { ident, qualified } from '../storage/identifiers';
import { Database, Sql } from '@platform/persistence';
import type { UserTable } from '../tables/user-table';
import { fileKey, tablePrefix } from './object-keys';
import { UPLOAD_URL_TTL_SECONDS } from './object-storage';

export interface ObjectDeletion {
  id: string;
  objectKey: string;
  isPrefix: boolean;
  attempts: number;
}

interface DeletionRow {
  id: string;
  object_key: string;
  is_prefix: boolean;
  attempts: number;
}

/**
 * The queue of objects to remove from storage. Changes write to it in their own transaction, so a file
 * leaves storage exactly when the change that dropped it commits; the cleanup drains it afterwards.
 */
@Injectable()
export class ObjectDeletionsRepository {
  constructor(private readonly db: Database) {}

  /** Queues the files and forgets their uploads (an id whose file is gone names nothing any more). */
  async enqueueFiles(db: Sql, table: UserTable, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await db.query(
      `WITH forgotten AS (DELETE FROM tables.uploads WHERE id = ANY($1::uuid[]))
       INSERT INTO tables.object_deletions (object_key) SELECT unnest($2::text[])`,
      [fileIds, fileIds.map((id) => fileKey(table.organizationId, table.id, id))],
    );
  }

  /** Queues an object that is to stay in storage for `keepSeconds` from now (an export's file), by the clock: a long transaction began earlier. */
  async enqueueLater(db: Sql, objectKey: string, keepSeconds: number): Promise<void> {
    await db.query(`INSERT INTO tables.object_deletions (object_key, due_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2))`, [objectKey, keepSeconds]);
  }

  /** Queues every file the rows hold in these attachment columns, before the columns are dropped. */
  async enqueueColumns(db: Sql, table: UserTable, fields: readonly Field[]): Promise<void> {
    for (const field of fields) {
      await db.query(
        `WITH files AS (
           SELECT (entry->>'id')::uuid AS id FROM ${qualified(table.storageName)} r
           CROSS JOIN LATERAL jsonb_array_elements(r.${ident(field.column)}) entry
           WHERE r.${ident(field.column)} IS NOT NULL AND entry ? 'id'),
         forgotten AS (DELETE FROM tables.uploads u USING files WHERE u.id = files.id)
         INSERT INTO tables.object_deletions (object_key) SELECT $1 || id FROM files`,
        [tablePrefix(table.organizationId, table.id)],
      );
    }
  }

  /**
   * Queues every object under the table's prefix: its files and its uploads never attached. A second
   * sweep runs once the last upload URL handed out for the table has expired, for a PUT that came late.
   */
  async enqueueTable(db: Sql, table: Pick<UserTable, 'organizationId' | 'id'>): Promise<void> {
    await db.query(
      `INSERT INTO tables.object_deletions (object_key, is_prefix, due_at) VALUES ($1, true, now()), ($1, true, now() + make_interval(secs => $2))`,
      [tablePrefix(table.organizationId, table.id), UPLOAD_URL_TTL_SECONDS + 60],
    );
  }

  /**
   * Moves uploads never attached within `maxAgeSeconds` to the queue, a batch at a time; replicas skip
   * each other's rows instead of waiting on them.
   */
  async sweepAbandonedUploads(maxAgeSeconds: number, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `WITH abandoned AS (
         DELETE FROM tables.uploads WHERE id IN (
           SELECT id FROM tables.uploads WHERE attached_at IS NULL AND created_at < now() - make_interval(secs => $1)
           ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING organization_id, table_id, id)
       INSERT INTO tables.object_deletions (object_key) SELECT organization_id || '/' || table_id || '/' || id FROM abandoned`,
      [maxAgeSeconds, limit],
    );
    return rowCount ?? 0;
  }

  /**
   * Leases due deletions for `leaseSeconds`: a cleanup that dies mid-batch leaves them to another after
   * the lease, and nobody holds a transaction open while storage answers.
   */
  async lease(limit: number, leaseSeconds: number): Promise<ObjectDeletion[]> {
    const { rows } = await this.db.query<DeletionRow>(
      `UPDATE tables.object_deletions SET due_at = now() + make_interval(secs => $2), attempts = attempts + 1
       WHERE id IN (SELECT id FROM tables.object_deletions WHERE due_at <= now() ORDER BY due_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, object_key, is_prefix, attempts`,
      [limit, leaseSeconds],
    );
    return rows.map((row) => ({ id: row.id, objectKey: row.object_key, isPrefix: row.is_prefix, attempts: row.attempts }));
  }

  async done(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.db.query('DELETE FROM tables.object_deletions WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Due again at once: a prefix with more objects left under it. */
  async continueSoon(id: string): Promise<void> {
    await this.db.query('UPDATE tables.object_deletions SET due_at = now(), attempts = 0, last_error = NULL WHERE id = $1', [id]);
  }

  async retryLater(ids: readonly string[], delaySeconds: number, error: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      'UPDATE tables.object_deletions SET due_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = ANY($1::bigint[])',
      [ids, delaySeconds, error.slice(0, 1_000)],
    );
  }

  /** Deletions waiting, and the age in seconds of the oldest (0 when none): what the metrics show. */
  async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    const { rows } = await this.db.query<{ pending: string; oldest: number }>(
      `SELECT count(*) AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS oldest FROM tables.object_deletions`,
    );
    return { pending: Number(rows[0].pending), oldestSeconds: Number(rows[0].oldest) };
  }
}
