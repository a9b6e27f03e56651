import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainEvent, isUuid, RowView, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { Database, fitsOneEntry, Sql } from '@platform/persistence';
import { AttachmentFiles, CheckedUploads } from '../attachments/attachment-files';
import type { UserTable } from '../tables/user-table';
import { UserTableRepository } from '../tables/user-table.repository';
import { TABLES_OUTBOX } from '../tables-schema';
import { atItem } from './batch-items';
import { validateRowData } from './field-values';
import { rowEvent } from './row-events';
import { withUniqueValues } from './unique-values';
import { RowRecord, rowDataOf, rowView } from './row-record';
import { RowsRepository } from './rows.repository';
import { RowsService } from './rows.service';

/** Distinct row ids, each a UUID, named by its index when not. */
function rowIds(ids: readonly unknown[], path: (i: number) => string): string[] {
  const seen = new Set<string>();
  return ids.map((id, i) => {
    if (!isUuid(id)) throw AppError.validation(path(i), 'must be a row id (UUID)');
    const key = id.toLowerCase();
    if (seen.has(key)) throw AppError.validation(path(i), 'appears twice in this batch');
    seen.add(key);
    return key;
  });
}

const NO_UPLOADS: CheckedUploads = new Map();

function missingRow(path: string): AppError {
  return AppError.notFound(`Row ${path}`);
}

/**
 * Batches of up to 100 rows: one transaction, all or nothing, one event per row written. The table's
 * metadata row is held FOR SHARE throughout, as for single row writes, so no table change interleaves.
 */
@Injectable()
export class RowBatchesService {
  constructor(
    private readonly db: Database,
    private readonly tables: UserTableRepository,
    private readonly rows: RowsRepository,
    private readonly single: RowsService,
    private readonly files: AttachmentFiles,
  ) {}

  async create(organizationId: string, tableId: string, items: ReadonlyArray<{ data: Record<string, unknown> }>): Promise<ServiceResult<RowView[]>> {
    const uploads = await this.files.checkUploads({ id: tableId, organizationId }, items.map((item) => item.data));
    if (uploads.size === 0) {
      const written = await this.single.againstCachedTable(organizationId, tableId, (table) => this.createAtOnce(table, items));
      if (written.written !== 'too large') return { data: written.written };
    }
    const created = await this.inTable(organizationId, tableId, async (client, table) => {
      const rows = items.map((item, i) => ({ id: randomUUID(), values: atItem(`rows[${i}]`, () => validateRowData(table.fields, item.data, 'create')) }));
      await this.files.settleRows(client, table, rows.map((row) => row.values), uploads, (i) => `rows[${i}].data`);
      const records = await withUniqueValues(table, () => this.rows.insertMany(client, table, rows), {
        values: rows.map((row) => row.values),
        pathOf: (i) => `rows[${i}].data`,
      });
      const views = records.map((record) => rowView(table.fields, record));
      await this.files.presentRows(table, views.map((row) => row.data));
      await TABLES_OUTBOX.write(client, views.map((row) => rowEvent('row.created', table, row.id, row.data)));
      return views;
    });
    return { data: created };
  }

  /**
   * A batch without uploads in one statement, as a single create is (RowsRepository.createTogether): the
   * rows, the counter and one message of their events, checked against the cached table's version;
   * undefined when that version moved (the caller reloads), 'too large' when the events would not fit in
   * one message (the transaction writes them as several).
   */
  private async createAtOnce(table: UserTable, items: ReadonlyArray<{ data: Record<string, unknown> }>): Promise<RowView[] | 'too large' | undefined> {
    const rows = items.map((item, i) => ({ id: randomUUID(), values: atItem(`rows[${i}]`, () => validateRowData(table.fields, item.data, 'create')) }));
    await this.files.settleRows(this.db, table, rows.map((row) => row.values), NO_UPLOADS, (i) => `rows[${i}].data`);
    const data = rows.map((row) => rowDataOf(table.fields, row.values));
    await this.files.presentRows(table, data);
    const creates = rows.map((row, i) => {
      const event = rowEvent('row.created', table, row.id, data[i]);
      return { ...row, event, body: JSON.stringify(event) };
    });
    if (!fitsOneEntry(creates.length, creates.reduce((bytes, create) => bytes + create.body.length, 0))) return 'too large';
    const { written, at } = await withUniqueValues(table, () => this.rows.createTogether(table, creates, 'never'), {
      values: rows.map((row) => row.values),
      pathOf: (i) => `rows[${i}].data`,
    });
    if (written.size < creates.length) return undefined;
    // The rows as a read would answer them: the data their events carry (files presented), written at the statement's time.
    const stamp = at.toISOString();
    return creates.map((create, i) => ({ id: create.id, data: data[i], created_at: stamp, updated_at: stamp }));
  }

  /** Items whose values are already stored answer the row as it is and emit nothing, like a single PATCH. */
  async update(organizationId: string, tableId: string, items: ReadonlyArray<{ id: string; data: Record<string, unknown> }>): Promise<ServiceResult<RowView[]>> {
    const uploads = await this.files.checkUploads({ id: tableId, organizationId }, items.map((item) => item.data));
    const updated = await this.inTable(organizationId, tableId, async (client, table) => {
      const ids = rowIds(items.map((item) => item.id), (i) => `rows[${i}].id`);
      const values = items.map((item, i) => atItem(`rows[${i}]`, () => validateRowData(table.fields, item.data, 'update')));
      const current = await this.rows.findManyForUpdate(client, table, ids);
      const missing = ids.findIndex((id) => !current.has(id));
      if (missing >= 0) throw missingRow(`rows[${missing}].id`);
      const views: RowView[] = [];
      const events: DomainEvent[] = [];
      for (const [i, id] of ids.entries()) {
        const { row, event } = await this.single.change(client, table, current.get(id) as RowRecord, values[i], uploads, `rows[${i}].data`);
        views.push(row);
        if (event) events.push(event);
      }
      await TABLES_OUTBOX.write(client, events);
      return views;
    });
    return { data: updated };
  }

  async remove(organizationId: string, tableId: string, rawIds: readonly unknown[]): Promise<ServiceResult<never>> {
    const count = await this.inTable(organizationId, tableId, async (client, table) => {
      const ids = rowIds(rawIds, (i) => `ids[${i}]`);
      const deleted = new Map((await this.rows.deleteMany(client, table, ids)).map((record) => [record.id, record]));
      const missing = ids.findIndex((id) => !deleted.has(id));
      if (missing >= 0) throw missingRow(`ids[${missing}]`);
      const rows = ids.map((id) => rowView(table.fields, deleted.get(id) as RowRecord));
      for (const row of rows) await this.files.dropRow(client, table, row.data);
      await this.files.presentRows(table, rows.map((row) => row.data));
      await TABLES_OUTBOX.write(client, rows.map((row) => rowEvent('row.deleted', table, row.id, row.data)));
      return ids.length;
    });
    return { message: `${count} ${count === 1 ? 'row' : 'rows'} deleted` };
  }

  /** In a transaction holding the table FOR SHARE, so no table change interleaves. */
  inTable<T>(organizationId: string, tableId: string, work: (client: Sql, table: UserTable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (client) => {
      const table = await this.tables.find(organizationId, tableId, client, 'share');
      if (!table) throw AppError.notFound('Table');
      return work(client, table);
    });
  }
}
