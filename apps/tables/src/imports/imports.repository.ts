import { Injectable } from '@nestjs/common';
import type { ImportFormat, ImportMode, ImportOnError, ImportProblem, ImportStatus, ImportView } from '@contracts';
import { Database, Sql } from '@platform/persistence';
import { JobQueue } from '../jobs/job-queue';
import { IMPORTS_TABLE } from '../tables-schema';

export interface ImportJob {
  id: string;
  organizationId: string;
  tableId: string;
  uploadId: string;
  format: ImportFormat;
  mode: ImportMode;
  upsertOn: string | null;
  onError: ImportOnError;
  columns: Record<string, string | null> | null;
  /** Runs started before this one (each claim counts one). */
  attempts: number;
}

interface ImportRow {
  id: string;
  organization_id: string;
  table_id: string;
  upload_id: string;
  status: ImportStatus;
  format: ImportFormat;
  mode: ImportMode;
  upsert_on: string | null;
  on_error: ImportOnError;
  columns: Record<string, string | null> | null;
  rows_done: string;
  rows_created: string;
  rows_updated: string;
  rows_failed: string;
  errors: ImportProblem[];
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** How an import ended, written with its last counts. */
export interface ImportOutcome {
  status: 'completed' | 'failed';
  rowsDone: number;
  rowsCreated: number;
  rowsUpdated: number;
  rowsFailed: number;
  errors: ImportProblem[];
}

function view(row: ImportRow): ImportView {
  return {
    id: row.id,
    table_id: row.table_id,
    status: row.status,
    format: row.format,
    mode: row.mode,
    on_error: row.on_error,
    rows_done: Number(row.rows_done),
    rows_created: Number(row.rows_created),
    rows_updated: Number(row.rows_updated),
    rows_failed: Number(row.rows_failed),
    errors: row.errors,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

function job(row: ImportRow): ImportJob {
  return {
    id: row.id,
    organizationId: row.organization_id,
    tableId: row.table_id,
    uploadId: row.upload_id,
    format: row.format,
    mode: row.mode,
    upsertOn: row.upsert_on,
    onError: row.on_error,
    columns: row.columns,
    attempts: row.attempts,
  };
}

/** Imports and their progress. Unfinished ones are `queued` or `running`; at most one of a table (a unique index). */
@Injectable()
export class ImportsRepository extends JobQueue<ImportRow, ImportJob> {
  constructor(db: Database) {
    // A run starts from the beginning: what an earlier run counted is gone with its rolled-back rows.
    super(db, IMPORTS_TABLE, job, ", rows_created = 0, rows_updated = 0, rows_failed = 0, errors = '[]'");
  }

  /** Answers undefined when the table already has an unfinished import. */
  async insert(organizationId: string, tableId: string, spec: Omit<ImportJob, 'organizationId' | 'tableId' | 'attempts'>): Promise<ImportView | undefined> {
    const { rows } = await this.db.query<ImportRow>(
      `INSERT INTO ${IMPORTS_TABLE} (id, organization_id, table_id, upload_id, format, mode, upsert_on, on_error, columns)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (table_id) WHERE status IN ('queued', 'running') DO NOTHING RETURNING *`,
      [spec.id, organizationId, tableId, spec.uploadId, spec.format, spec.mode, spec.upsertOn, spec.onError, spec.columns === null ? null : JSON.stringify(spec.columns)],
    );
    return rows[0] && view(rows[0]);
  }

  async find(organizationId: string, tableId: string, importId: string): Promise<ImportView | undefined> {
    const row = await this.stored(organizationId, tableId, importId);
    return row && view(row);
  }

  async list(organizationId: string, tableId: string, limit: number, offset: number): Promise<{ items: ImportView[]; total: number }> {
    const { rows } = await this.db.query<ImportRow & { total: string }>(
      `SELECT *, count(*) OVER () AS total FROM ${IMPORTS_TABLE} WHERE organization_id = $1 AND table_id = $2
       ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [organizationId, tableId, limit, offset],
    );
    const total = rows.length ? Number(rows[0].total) : offset > 0 ? await this.count(organizationId, tableId) : 0;
    return { items: rows.map(view), total };
  }

  private async count(organizationId: string, tableId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${IMPORTS_TABLE} WHERE organization_id = $1 AND table_id = $2`, [organizationId, tableId]);
    return Number(rows[0].n);
  }

  /** Whether the table has an import queued or running (a table change waits for none). */
  async hasUnfinished(db: Sql, organizationId: string, tableId: string): Promise<boolean> {
    const { rowCount } = await db.query(`SELECT 1 FROM ${IMPORTS_TABLE} WHERE table_id = $1 AND organization_id = $2 AND status IN ('queued', 'running')`, [
      tableId,
      organizationId,
    ]);
    return Boolean(rowCount);
  }

  /** In the run's transaction, which began with the claim: `finished_at` is the clock's time, not the transaction's start. */
  async finish(db: Sql, importId: string, outcome: ImportOutcome): Promise<void> {
    await db.query(
      `UPDATE ${IMPORTS_TABLE} SET status = $2, rows_done = $3, rows_created = $4, rows_updated = $5, rows_failed = $6, errors = $7, finished_at = clock_timestamp()
       WHERE id = $1`,
      [importId, outcome.status, outcome.rowsDone, outcome.rowsCreated, outcome.rowsUpdated, outcome.rowsFailed, JSON.stringify(outcome.errors)],
    );
  }
}
