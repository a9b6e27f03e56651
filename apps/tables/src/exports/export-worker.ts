import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '@platform/errors';
import { copyOut, Database, Sql } from '@platform/persistence';
import { counter } from '@platform/service';
import { ObjectDeletionsRepository } from '../attachments/object-deletions.repository';
import { ObjectStorage } from '../attachments/object-storage';
import { JobProgress, MAX_JOB_ATTEMPTS } from '../jobs/job-runner';
import { JobWorker } from '../jobs/job-worker';
import { UserTableRepository } from '../tables/user-table.repository';
import { TablesConfig } from '../tables.config';
import { exportFile } from './export-file';
import { ExportLines } from './export-lines';
import { exportStatement } from './export-statement';
import { ExportJob, ExportsRepository } from './exports.repository';

const finished = counter('exports_finished_total', 'Exports that ended', ['status']);

/**
 * Runs exports through the context's job runner. The claim's transaction holds the export while another
 * connection, in a REPEATABLE READ transaction, reads the table's fields and streams its rows out of one
 * COPY (one snapshot: rows written meanwhile are not in the file) through a row counter into a multipart
 * upload. Then the claim's transaction marks it completed and queues the file's removal for when it
 * expires, together. A run that dies leaves at most a file that the next run writes again.
 */
@Injectable()
export class ExportWorker extends JobWorker<ExportJob, JobProgress> {
  private readonly logger = new Logger('ExportWorker');

  constructor(
    private readonly db: Database,
    private readonly exports: ExportsRepository,
    private readonly tables: UserTableRepository,
    private readonly storage: ObjectStorage,
    private readonly deletions: ObjectDeletionsRepository,
    private readonly config: TablesConfig,
  ) {
    super(db, { name: 'export', source: exports, newProgress: () => ({ rowsDone: 0 }) });
  }

  protected async run(tx: Sql, job: ExportJob, progress: JobProgress): Promise<void> {
    // The claim waits, idle, while the rows stream on another connection, for as long as the table takes.
    await tx.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    if (job.attempts >= MAX_JOB_ATTEMPTS) return this.fail(tx, job, `it stopped ${MAX_JOB_ATTEMPTS} times before it could end`);
    const file = exportFile(job.organizationId, job.tableId, job.id, job.format);
    let rows: number;
    try {
      rows = await this.write(job, file, progress);
    } catch (error) {
      // The table lost a field the export names since it was asked for: it can never run.
      if (error instanceof AppError && error.code === ErrorCode.ValidationError) return this.fail(tx, job, error.message);
      throw error;
    }
    const keepSeconds = this.config.EXPORT_FILE_TTL_SECONDS;
    await this.exports.completed(tx, job.id, rows, keepSeconds);
    await this.deletions.enqueueLater(tx, file.key, keepSeconds);
    finished.inc({ status: 'completed' });
    this.logger.log({ exportId: job.id, tableId: job.tableId, rows }, 'export completed');
  }

  private async fail(tx: Sql, job: ExportJob, reason: string): Promise<void> {
    await this.exports.failed(tx, job.id);
    finished.inc({ status: 'failed' });
    this.logger.warn({ exportId: job.id, tableId: job.tableId, reason }, 'export failed');
  }

  /** Streams the rows of one snapshot into the file; answers how many it wrote. */
  private write(job: ExportJob, file: ReturnType<typeof exportFile>, progress: JobProgress): Promise<number> {
    return this.db.transaction(async (snapshot) => {
      await snapshot.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      // One statement streams the whole table; dates come out as `YYYY-MM-DD`, whatever the server's default.
      await snapshot.query(`SET LOCAL statement_timeout = 0; SET LOCAL DateStyle = 'ISO'`);
      const table = await this.tables.find(job.organizationId, job.tableId, snapshot);
      // A deleted table took its exports with it; the claim's update finds nothing.
      if (!table) return 0;
      const statement = exportStatement(table, job);
      const copy = copyOut(snapshot, statement.copy);
      const lines = this.runner.holds(new ExportLines(statement.header, job.format === 'csv', progress));
      copy.output.once('error', (error) => lines.destroy(error));
      copy.output.pipe(lines);
      try {
        await Promise.all([this.storage.write(file.key, lines, file.mimeType), copy.ended]);
      } catch (error) {
        await copy.abandon(this.db);
        throw error;
      }
      return progress.rowsDone;
    });
  }
}
