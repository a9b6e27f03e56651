import { Injectable, Logger } from '@nestjs/common';
import type { TableImportedEventData } from '@contracts';
import { buildEvent, Database, Sql } from '@platform/persistence';
import { counter } from '@platform/service';
import { ObjectDeletionsRepository } from '../attachments/object-deletions.repository';
import { fileKey } from '../attachments/object-keys';
import { ObjectStorage } from '../attachments/object-storage';
import { MAX_JOB_ATTEMPTS } from '../jobs/job-runner';
import { JobWorker } from '../jobs/job-worker';
import type { UserTable } from '../tables/user-table';
import { UserTableRepository } from '../tables/user-table.repository';
import { TABLES_OUTBOX } from '../tables-schema';
import { ImportRunner, ImportTally } from './import-runner';
import { ImportJob, ImportOutcome, ImportsRepository } from './imports.repository';

const finished = counter('imports_finished_total', 'Imports that ended', ['status']);

/**
 * Runs imports (one at a time per process, through the context's job runner), each in the transaction
 * that claimed it: its rows, its outcome, its `table.imported` event and the removal of its upload commit
 * together or not at all. So an import whose process dies leaves nothing behind and runs again from the
 * start, and it ends exactly once.
 */
@Injectable()
export class ImportWorker extends JobWorker<ImportJob, ImportTally> {
  private readonly logger = new Logger('ImportWorker');

  constructor(
    db: Database,
    private readonly imports: ImportsRepository,
    private readonly tables: UserTableRepository,
    private readonly storage: ObjectStorage,
    private readonly deletions: ObjectDeletionsRepository,
    private readonly importRunner: ImportRunner,
  ) {
    super(db, { name: 'import', source: imports, newProgress: () => new ImportTally() });
  }

  protected async run(tx: Sql, job: ImportJob, tally: ImportTally): Promise<void> {
    const table = await this.tables.find(job.organizationId, job.tableId, tx, 'share');
    // A deleted table took its imports with it.
    if (!table) return;
    const outcome = job.attempts >= MAX_JOB_ATTEMPTS ? this.givenUp(tally) : await this.rows(tx, job, table, tally);
    await this.imports.finish(tx, job.id, outcome);
    if (outcome.status === 'completed') await TABLES_OUTBOX.write(tx, [importedEvent(table, job, outcome)]);
    await this.deletions.enqueueFiles(tx, table, [job.uploadId]);
    finished.inc({ status: outcome.status });
    this.logger.log({ importId: job.id, tableId: job.tableId, ...outcome, errors: outcome.errors.length }, 'import ended');
  }

  /** The file's rows under a savepoint, rolled back to when the import fails. */
  private async rows(tx: Sql, job: ImportJob, table: UserTable, tally: ImportTally): Promise<ImportOutcome> {
    await tx.query('SAVEPOINT import_rows');
    const reading = this.runner.holds(await this.storage.read(fileKey(job.organizationId, job.tableId, job.uploadId)));
    const outcome = await this.importRunner.run(tx, job, table, reading, tally);
    if (outcome.status === 'failed') await tx.query('ROLLBACK TO SAVEPOINT import_rows');
    return outcome;
  }

  private givenUp(tally: ImportTally): ImportOutcome {
    tally.errors.push({ line: 0, field: null, code: 'INTERNAL_ERROR', message: `the import stopped ${MAX_JOB_ATTEMPTS} times before it could end; upload the file and import it again` });
    return tally.outcome('failed');
  }
}

function importedEvent(table: UserTable, job: ImportJob, outcome: ImportOutcome) {
  return buildEvent<TableImportedEventData>(table.organizationId, 'table.imported', {
    table_id: table.id,
    import_id: job.id,
    rows_created: outcome.rowsCreated,
    rows_updated: outcome.rowsUpdated,
    rows_failed: outcome.rowsFailed,
  });
}
