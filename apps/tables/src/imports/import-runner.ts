import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ImportProblem, MAX_IMPORT_ERRORS } from '@contracts';
import { AppError, ErrorCode, ValidationDetails } from '@platform/errors';
import type { Sql } from '@platform/persistence';
import { AttachmentDraft } from '../attachments/attachment-entries';
import { AttachmentFiles } from '../attachments/attachment-files';
import type { Field } from '../fields/field';
import { isEmptyValue, validateRowData } from '../rows/field-values';
import { changedValues } from '../rows/row-changes';
import { rowView } from '../rows/row-record';
import { RowsRepository } from '../rows/rows.repository';
import { withUniqueValues } from '../rows/unique-values';
import type { UserTable } from '../tables/user-table';
import { cellValue, ColumnMap, mapColumns, UnreadableCell } from './import-columns';
import { fileRecords, UnreadableFile } from './import-records';
import type { ImportJob, ImportOutcome } from './imports.repository';

/** Lines written per statement: large enough that a round trip costs little per row, small enough to stay light. */
export const IMPORT_BATCH_LINES = 1_000;

interface Line {
  line: number;
  data: Record<string, unknown>;
}

/** A line that will not be written, and why. */
class LineProblem extends Error {
  constructor(
    readonly field: string | null,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function problemOf(error: unknown): LineProblem {
  if (error instanceof LineProblem) return error;
  if (error instanceof AppError && (error.code === ErrorCode.ValidationError || error.code === ErrorCode.Conflict)) {
    const field = (error.details as ValidationDetails | undefined)?.field ?? null;
    return new LineProblem(field?.replace(/^data\./, '') ?? null, error.code, error.message);
  }
  throw error;
}

/** Attachment cells and NDJSON values may link files; uploads and stored files belong to row writes. */
function linksOnly(values: Map<Field, unknown>): void {
  for (const [field, value] of values) {
    if (value instanceof AttachmentDraft && value.entries.some((entry) => entry.kind !== 'link')) {
      throw new LineProblem(field.slug, ErrorCode.ValidationError, `${field.slug}: an import attaches files by link ({url, filename}) only`);
    }
  }
}

/** What one run has counted so far; `rowsDone` is read by the progress writer while the run goes on. */
export class ImportTally {
  rowsDone = 0;
  rowsCreated = 0;
  rowsUpdated = 0;
  rowsFailed = 0;
  readonly errors: ImportProblem[] = [];

  /** Keeps the problems of the first lines: a batch finds those of its cells before those of its rows. */
  fail(line: number, problem: LineProblem): void {
    this.rowsFailed += 1;
    if (this.errors.length >= MAX_IMPORT_ERRORS && line >= this.errors[this.errors.length - 1].line) return;
    this.errors.push({ line, field: problem.field, code: problem.code, message: problem.message });
    this.errors.sort((a, b) => a.line - b.line);
    this.errors.length = Math.min(this.errors.length, MAX_IMPORT_ERRORS);
  }

  /** A failed import wrote nothing, whatever it had counted before it failed. */
  outcome(status: ImportOutcome['status']): ImportOutcome {
    const written = status === 'completed';
    return {
      status,
      rowsDone: this.rowsDone,
      rowsCreated: written ? this.rowsCreated : 0,
      rowsUpdated: written ? this.rowsUpdated : 0,
      rowsFailed: this.rowsFailed,
      errors: this.errors,
    };
  }
}

/**
 * Reads an import's file as it streams in and writes its lines in the caller's transaction, a batch per
 * statement, each batch under a savepoint so a refused batch leaves the others. With `abort`, the first
 * problem stops the writing (the caller rolls everything back) and the rest of the file is still checked
 * for the report; with `skip`, bad lines are counted and the good ones written.
 */
@Injectable()
export class ImportRunner {
  constructor(
    private readonly rows: RowsRepository,
    private readonly files: AttachmentFiles,
  ) {}

  async run(tx: Sql, job: ImportJob, table: UserTable, bytes: Readable, tally: ImportTally): Promise<ImportOutcome> {
    const key = job.mode === 'upsert' ? table.fields.find((field) => field.slug === job.upsertOn && field.options.is_unique) : undefined;
    if (job.mode === 'upsert' && !key) {
      tally.fail(1, new LineProblem('upsert_on', ErrorCode.ValidationError, 'upsert_on: the field is no longer an is_unique field of this table'));
      return tally.outcome('failed');
    }
    let columns: ColumnMap | undefined;
    let batch: Line[] = [];
    const writing = () => job.onError === 'skip' || tally.rowsFailed === 0;
    // The batch being written: the file is read and checked on while Postgres writes it, and the next
    // batch waits for it (one statement at a time on the transaction's connection, in the file's order).
    let written: Promise<void> = Promise.resolve();
    const next = async (lines: Line[]) => {
      await written;
      written = this.write(tx, table, key, lines, tally, writing());
      // Seen by the next batch's await, or the last one's; never unhandled in between.
      written.catch(() => undefined);
    };
    try {
      for await (const record of fileRecords(bytes, job.format)) {
        if (job.onError === 'abort' && tally.errors.length >= MAX_IMPORT_ERRORS) break;
        if ('problem' in record) {
          if (record.line !== 1 || job.format !== 'csv') tally.rowsDone += 1;
          tally.fail(record.line, new LineProblem(null, ErrorCode.ValidationError, `line ${record.line}: ${record.problem}`));
          continue;
        }
        if ('cells' in record && !columns) {
          try {
            columns = mapColumns(record.cells, table.fields, job.columns ?? undefined);
          } catch (error) {
            tally.fail(record.line, problemOf(error));
            return tally.outcome('failed');
          }
          continue;
        }
        tally.rowsDone += 1;
        try {
          batch.push({ line: record.line, data: 'cells' in record ? this.cells(columns as ColumnMap, record.cells) : record.object });
        } catch (error) {
          tally.fail(record.line, problemOf(error));
        }
        if (batch.length >= IMPORT_BATCH_LINES) {
          await next(batch);
          batch = [];
        }
      }
    } catch (error) {
      await written.catch(() => undefined);
      if (!(error instanceof UnreadableFile)) throw error;
      tally.fail(error.line, new LineProblem(null, 'BAD_REQUEST', `line ${error.line}: the file ${error.message}`));
      return tally.outcome('failed');
    }
    await next(batch);
    await written;
    if (job.format === 'csv' && !columns) tally.fail(1, new LineProblem(null, 'BAD_REQUEST', 'line 1: the file is empty: a CSV import needs a header line'));
    return tally.outcome(job.onError === 'abort' && tally.rowsFailed > 0 ? 'failed' : 'completed');
  }

  private cells(columns: ColumnMap, cells: string[]): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    columns.forEach((field, i) => {
      if (!field) return;
      try {
        const value = cellValue(field, cells[i]);
        if (value !== undefined) data[field.slug] = value;
      } catch (error) {
        if (error instanceof UnreadableCell) throw new LineProblem(field.slug, ErrorCode.ValidationError, `${field.slug}: ${error.message}`);
        throw error;
      }
    });
    return data;
  }

  /** Checks a batch's lines; writes the good ones when `write` (nothing has failed under `abort`). */
  private async write(tx: Sql, table: UserTable, key: Field | undefined, lines: Line[], tally: ImportTally, write: boolean): Promise<void> {
    if (lines.length === 0) return;
    if (key) return this.upsert(tx, table, key, lines, tally, write);
    const rows: Array<{ id: string; values: Map<Field, unknown>; line: number }> = [];
    for (const { line, data } of lines) {
      try {
        const values = validateRowData(table.fields, data, 'create');
        linksOnly(values);
        await this.files.settle(tx, table, values, new Map());
        rows.push({ id: randomUUID(), values, line });
      } catch (error) {
        tally.fail(line, problemOf(error));
      }
    }
    if (!write) return;
    const written = await this.refusingRepeats(tx, table, rows, tally, (batch) => this.rows.insertColumns(tx, table, batch));
    tally.rowsCreated += written;
  }

  /**
   * Runs a write of `rows` under a savepoint; a row whose unique value is taken is counted as failed and the
   * write runs again without it. Answers how many rows were written.
   */
  private async refusingRepeats<R extends { values: Map<Field, unknown>; line: number }>(
    tx: Sql,
    table: UserTable,
    rows: R[],
    tally: ImportTally,
    write: (rows: R[]) => Promise<unknown>,
  ): Promise<number> {
    let left = rows;
    while (left.length > 0) {
      await tx.query('SAVEPOINT import_batch');
      try {
        await withUniqueValues(table, () => write(left), { values: left.map((row) => row.values), pathOf: (i) => String(i) });
        await tx.query('RELEASE SAVEPOINT import_batch');
        return left.length;
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT import_batch');
        const problem = problemOf(error);
        const index = Number(problem.field?.split('.')[0]);
        if (!Number.isInteger(index) || !left[index]) throw error;
        const slug = problem.field?.split('.').slice(1).join('.') ?? null;
        tally.fail(left[index].line, new LineProblem(slug, ErrorCode.Conflict, `${slug}: another row already has this value`));
        left = left.filter((_, i) => i !== index);
      }
    }
    return 0;
  }

  /** As a batch upsert does: the rows holding the batch's keys are read and locked, each line checked as the create or update it is. */
  private async upsert(tx: Sql, table: UserTable, key: Field, lines: Line[], tally: ImportTally, write: boolean): Promise<void> {
    const checked: Array<{ line: number; data: Record<string, unknown>; values: Map<Field, unknown> }> = [];
    const keys = new Set<string>();
    for (const { line, data } of lines) {
      try {
        const values = validateRowData(table.fields, data, 'update');
        const value = values.get(key);
        if (isEmptyValue(value)) throw new LineProblem(key.slug, ErrorCode.ValidationError, `${key.slug}: is required: the import upserts on it`);
        if (keys.has(String(value))) throw new LineProblem(key.slug, ErrorCode.ValidationError, `${key.slug}: an earlier line of the file has the same value`);
        keys.add(String(value));
        linksOnly(values);
        checked.push({ line, data, values });
      } catch (error) {
        tally.fail(line, problemOf(error));
      }
    }
    const stored = await this.rows.findManyByUniqueForUpdate(tx, table, key, checked.map((item) => item.values.get(key)));
    const byKey = new Map(stored.map((record) => [String(rowView(table.fields, record).data[key.slug]), record]));
    const rows: Array<{ id: string; values: Map<Field, unknown>; line: number; created: boolean }> = [];
    for (const item of checked) {
      try {
        const before = byKey.get(String(item.values.get(key)));
        if (!before) {
          const values = validateRowData(table.fields, item.data, 'create');
          await this.files.settle(tx, table, values, new Map());
          rows.push({ id: randomUUID(), values, line: item.line, created: true });
          continue;
        }
        const previous = rowView(table.fields, before);
        await this.files.settle(tx, table, item.values, new Map(), previous.data);
        const changed = changedValues(item.values, previous.data);
        if (changed.size === 0) continue;
        const merged = new Map(table.fields.map((field) => [field, changed.has(field) ? changed.get(field) : previous.data[field.slug]]));
        rows.push({ id: before.id, values: merged, line: item.line, created: false });
      } catch (error) {
        tally.fail(item.line, problemOf(error));
      }
    }
    if (!write) return;
    let written: Array<(typeof rows)[number]> = [];
    await this.refusingRepeats(tx, table, rows, tally, async (batch) => {
      await this.rows.upsertMany(tx, table, key, batch);
      written = batch;
    });
    for (const row of written) {
      if (row.created) tally.rowsCreated += 1;
      else tally.rowsUpdated += 1;
    }
  }
}
