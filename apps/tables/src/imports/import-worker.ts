import type { Readable } from 'node:stream';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { TableImportedEventData } from '@contracts';
import { buildEvent, Database, Sql } from '@platform/persistence';
import { BackgroundLoop, counter } from '@platform/service';
import { ObjectDeletionsRepository } from '../attachments/object-deletions.repository';
import { fileKey } from '../attachments/object-keys';
import { ObjectStorage } from '../attachments/object-storage';
import type { UserTable } from '../tables/user-table';
import { UserTableRepository } from '../tables/user-table.repository';
import { TABLES_OUTBOX } from '../tables-schema';
import { ImportRunner, ImportTally } from './import-runner';
import { ImportJob, ImportOutcome, ImportsRepository } from './imports.repository';

/** `rows_done` reaches readers at least this often while an import runs. */
export const PROGRESS_INTERVAL_MS = 500;
/** Runs of one import that ended without an outcome (its process died, storage failed) before it is given up. */
export const MAX_IMPORT_ATTEMPTS = 5;

const finished = counter('imports_finished_total', 'Imports that ended', ['status']);

/** The process is stopping: the run is abandoned and rolled back, and another process takes the import up. */
class Stopping extends Error {}

/**
 * Runs imports, one at a time per process, each in one transaction: its rows, its outcome, its
 * `table.imported` event and the removal of its upload commit together or not at all. So an import whose
 * process dies leaves nothing behind; its claim lapses with the connection and it runs again from the
 * start, and it ends exactly once.
 */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ImportWorker');
  private readonly loop = new BackgroundLoop(this.logger, () => this.runNext(), { name: 'imports', owner: 'tables', failure: 'import run failed', idleMs: 1_000, backoffMs: 1_000 });
  private reading?: Readable;

  constructor(
    private readonly db: Database,
    private readonly imports: ImportsRepository,
    private readonly tables: UserTableRepository,
    private readonly storage: ObjectStorage,
    private readonly deletions: ObjectDeletionsRepository,
    private readonly runner: ImportRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.reading?.destroy(new Stopping('the process is stopping'));
    await this.loop.stop();
  }

  /** Answers whether it ran one (another may be waiting). */
  async runNext(): Promise<boolean> {
    const tally = new ImportTally();
    let running: ImportJob | undefined;
    const progress = setInterval(() => {
      if (running) this.imports.progress(running.id, tally.rowsDone).catch((error) => this.logger.warn({ err: error }, 'import progress not written'));
    }, PROGRESS_INTERVAL_MS);
    try {
      return await this.db.transaction(async (tx) => {
        const job = await this.imports.claim(tx);
        if (!job) return false;
        await this.imports.progress(job.id, 0, true);
        running = job;
        const table = await this.tables.find(job.organizationId, job.tableId, tx, 'share');
        // A deleted table took its imports with it.
        if (!table) return true;
        const outcome = job.attempts >= MAX_IMPORT_ATTEMPTS ? this.givenUp(tally) : await this.run(tx, job, table, tally);
        await this.imports.finish(tx, job.id, outcome);
        if (outcome.status === 'completed') await TABLES_OUTBOX.write(tx, [importedEvent(table, job, outcome)]);
        await this.deletions.enqueueFiles(tx, table, [job.uploadId]);
        finished.inc({ status: outcome.status });
        this.logger.log({ importId: job.id, tableId: job.tableId, ...outcome, errors: outcome.errors.length }, 'import ended');
        return true;
      });
    } finally {
      clearInterval(progress);
      this.reading = undefined;
    }
  }

  /** The file's rows under a savepoint, rolled back to when the import fails. */
  private async run(tx: Sql, job: ImportJob, table: UserTable, tally: ImportTally): Promise<ImportOutcome> {
    await tx.query('SAVEPOINT import_rows');
    this.reading = await this.storage.read(fileKey(job.organizationId, job.tableId, job.uploadId));
    const outcome = await this.runner.run(tx, job, table, this.reading, tally);
    if (outcome.status === 'failed') await tx.query('ROLLBACK TO SAVEPOINT import_rows');
    return outcome;
  }

  private givenUp(tally: ImportTally): ImportOutcome {
    tally.errors.push({ line: 0, field: null, code: 'INTERNAL_ERROR', message: `the import stopped ${MAX_IMPORT_ATTEMPTS} times before it could end; upload the file and import it again` });
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
