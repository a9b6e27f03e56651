import { Injectable } from '@nestjs/common';
import type { ExportFormat } from '@contracts';
import { Database, Sql } from '@platform/persistence';
import { JobQueue } from '../jobs/job-queue';
import type { SortOrder } from '../rows/row-sort';
import { EXPORTS_TABLE } from '../tables-schema';
import type { ExportSpec } from './export-statement';

/** An export as stored; whether it has expired is for its reader to tell from `expires_at`. */
export interface ExportRow {
  id: string;
  organization_id: string;
  table_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  format: ExportFormat;
  filter: Record<string, unknown> | null;
  sort: string | null;
  sort_order: SortOrder | null;
  fields: string[] | null;
  rows_done: string;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
}

export interface ExportJob extends ExportSpec {
  id: string;
  organizationId: string;
  tableId: string;
  attempts: number;
}

function job(row: ExportRow): ExportJob {
  return {
    id: row.id,
    organizationId: row.organization_id,
    tableId: row.table_id,
    format: row.format,
    filter: row.filter,
    sort: row.sort,
    order: row.sort_order,
    fields: row.fields,
    attempts: row.attempts,
  };
}

/** Exports and their progress; unfinished ones are `queued` or `running`. */
@Injectable()
export class ExportsRepository extends JobQueue<ExportRow, ExportJob> {
  constructor(db: Database) {
    super(db, EXPORTS_TABLE, job);
  }

  async insert(organizationId: string, tableId: string, id: string, spec: ExportSpec): Promise<ExportRow> {
    const { rows } = await this.db.query<ExportRow>(
      `INSERT INTO ${EXPORTS_TABLE} (id, organization_id, table_id, format, filter, sort, sort_order, fields) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [id, organizationId, tableId, spec.format, spec.filter === null ? null : JSON.stringify(spec.filter), spec.sort, spec.order, spec.fields],
    );
    return rows[0];
  }

  find(organizationId: string, tableId: string, exportId: string): Promise<ExportRow | undefined> {
    return this.stored(organizationId, tableId, exportId);
  }

  /**
   * Completed with its file written, which storage keeps for `keepSeconds`. In the claim's transaction,
   * which began before the run: the times are the clock's, not the transaction's start.
   */
  async completed(db: Sql, exportId: string, rowsDone: number, keepSeconds: number): Promise<void> {
    await db.query(
      `UPDATE ${EXPORTS_TABLE} SET status = 'completed', rows_done = $2, finished_at = clock.now, expires_at = clock.now + make_interval(secs => $3)
       FROM (SELECT clock_timestamp() AS now) clock WHERE id = $1`,
      [exportId, rowsDone, keepSeconds],
    );
  }

  async failed(db: Sql, exportId: string): Promise<void> {
    await db.query(`UPDATE ${EXPORTS_TABLE} SET status = 'failed', finished_at = clock_timestamp() WHERE id = $1`, [exportId]);
  }
}
