import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DomainEvent, RowListQuery, RowView, ServiceResult } from '@contracts';
import { AttachmentFiles, CheckedUploads } from '../attachments/attachment-files';
import { AppError } from '@platform/errors';
import { Database, isPgError, PgErrorCode, Sql } from '@platform/persistence';
import { parseFilter } from '@platform/row-filter';
import { compileFilter, FilterNode } from '../filter/filter-compiler';
import { SqlParameters } from '../filter/sql-parameters';
import type { Field } from '../fields/field';
import type { UserTable } from '../tables/user-table';
import { UserTableCache } from '../tables/user-table.cache';
import { UserTableRepository } from '../tables/user-table.repository';
import { TABLES_OUTBOX } from '../tables-schema';
import { validateRowData } from './field-values';
import { withUniqueValues } from './unique-values';
import { RowRecord, rowDataOf, rowView } from './row-record';
import { changedValues } from './row-changes';
import { checkRowSize } from './row-size';
import { rowEvent, rowUpdatedEvent } from './row-events';
import { CursorPosition, CursorQuery, RowCursors } from './row-cursor';
import { RowOrder } from './row-sort';
import { ListedRow, RowsRepository, TableState, tableStateOf } from './rows.repository';
import { RowCreate, RowCreateGroups } from './row-create-groups';
import { readsMatchesFirst } from './read-plan';

/** A table changed under a cached copy at most this many times in a row before the create gives up. */
const CREATE_ATTEMPTS = 3;

/** Rolls back a create whose cached table changed meanwhile, so the caller reloads it and tries again. */
class TableMoved extends Error {}

function notFound(): AppError {
  return AppError.notFound('Row');
}

@Injectable()
export class RowsService {
  constructor(
    private readonly db: Database,
    private readonly tables: UserTableRepository,
    private readonly cache: UserTableCache,
    private readonly rows: RowsRepository,
    private readonly cursors: RowCursors,
    private readonly files: AttachmentFiles,
    private readonly groups: RowCreateGroups,
  ) {}

  /** A row as answers show it, with fresh download links for its files. */
  private async view(table: UserTable, record: RowRecord): Promise<RowView> {
    const view = rowView(table.fields, record);
    await this.files.present(table, view.data);
    return view;
  }

  private async table(organizationId: string, tableId: string): Promise<UserTable> {
    const table = await this.tables.find(organizationId, tableId);
    if (!table) throw AppError.notFound('Table');
    return table;
  }

  /**
   * One page of rows by `page` (offset) or by `cursor` (keyset: the cost does not grow with depth). Both
   * answer `next_cursor`, found by reading one row beyond the page. The table's fields come from the cached
   * copy, and its first statement reads the table's version and row count beside what it reads: a copy that
   * moved meanwhile, or could not serve the request (a field it does not know yet, a column dropped since),
   * is read again and the page with it. So a list costs Postgres one statement, two with a filter.
   */
  async list(organizationId: string, tableId: string, query: RowListQuery): Promise<ServiceResult<RowView[]>> {
    if (query.cursor !== undefined && query.page !== undefined) throw AppError.validation('cursor', 'cannot be combined with page');
    const cached = await this.cache.get(organizationId, tableId);
    if (!cached) throw AppError.notFound('Table');
    let refused: unknown;
    try {
      const listed = await this.listOf(cached, query, 'cached');
      if (listed) return listed;
    } catch (error) {
      if (!(error instanceof AppError) && !isPgError(error, PgErrorCode.UndefinedTable, PgErrorCode.UndefinedColumn)) throw error;
      refused = error;
    }
    const fresh = await this.cache.reload(organizationId, tableId);
    if (!fresh) throw AppError.notFound('Table');
    // Refused by the table as it is: the request's own fault.
    if (refused && fresh.version === cached.version) throw refused;
    return this.listOf(fresh, query, 'read');
  }

  /**
   * The page of `table` as `list` answers it; undefined when `table` is a cached copy the statements found
   * moved (or, reading no row, could not tell): a copy just `read` is the table's, its row count the total.
   */
  private listOf(table: UserTable, query: RowListQuery, copy: 'read'): Promise<ServiceResult<RowView[]>>;
  private listOf(table: UserTable, query: RowListQuery, copy: 'cached'): Promise<ServiceResult<RowView[]> | undefined>;
  private async listOf(table: UserTable, query: RowListQuery, copy: 'cached' | 'read'): Promise<ServiceResult<RowView[]> | undefined> {
    const filter = parseFilter(query.filter, table.fields);
    const order = RowOrder.of(query.sort, query.order, table.fields);
    const cursorQuery: CursorQuery = { tableId: table.id, sort: query.sort ?? 'created_at', order: query.order ?? 'asc', filter: query.filter ?? '', limit: query.limit };
    const position = query.cursor === undefined ? undefined : this.cursors.decode(cursorQuery, query.cursor);
    const page = position?.page ?? query.page ?? 1;
    const offset = (page - 1) * query.limit;
    const wanted = query.limit + 1;
    const current = (state: TableState | undefined) => copy === 'read' || state?.version === table.version;
    // Filtered, the exact total comes first: it says which way to read the page, and when there is none to
    // read. Unfiltered, the sharded counter already holds it; counting a million rows would not be cheap.
    const counted = filter ? await this.countMatches(table, filter) : undefined;
    if (counted && !current(counted.state)) return undefined;
    const rowCount = counted?.state?.rowCount ?? table.rowCount;
    const matchesFirst = counted !== undefined && readsMatchesFirst(counted.total, offset + wanted, rowCount);
    const records = counted?.total === 0 ? [] : await this.pageRecords(table, order, filter, position, wanted, offset, matchesFirst);
    const state = counted?.state ?? tableStateOf(records[0]);
    if (!current(state)) return undefined;
    const rows = records.slice(0, query.limit);
    const last = rows[rows.length - 1];
    const nextCursor = records.length > query.limit ? this.cursors.encode(cursorQuery, { key: last.cursor_key, id: last.id, page: page + 1 }) : null;
    return {
      data: await Promise.all(rows.map((record) => this.view(table, record))),
      pagination: { page, limit: query.limit, total: counted?.total ?? state?.rowCount ?? table.rowCount, next_cursor: nextCursor },
    };
  }

  private countMatches(table: UserTable, filter: FilterNode): Promise<{ total: number; state?: TableState }> {
    const params = new SqlParameters();
    return this.rows.count(table, compileFilter(filter, params), params);
  }

  /** Up to `wanted` rows from the offset, or after the cursor's row through its keyset conditions in turn. */
  private async pageRecords(
    table: UserTable,
    order: RowOrder,
    filter: FilterNode | undefined,
    position: CursorPosition | undefined,
    wanted: number,
    offset: number,
    matchesFirst: boolean,
  ): Promise<ListedRow[]> {
    const filtered = (params: SqlParameters) => (filter ? [compileFilter(filter, params)] : []);
    // Unfiltered, no count has read the table's state: the page's statements read it.
    const withState = !filter;
    if (!position) {
      const params = new SqlParameters();
      return this.rows.page(table, { conditions: filtered(params), params, order, limit: wanted, offset, matchesFirst, withState });
    }
    const records: ListedRow[] = [];
    for (const resume of order.after(table.storageName, position.key, position.id)) {
      if (records.length >= wanted) break;
      const params = new SqlParameters();
      const conditions = [...filtered(params), resume(params)];
      records.push(...(await this.rows.page(table, { conditions, params, order, limit: wanted - records.length, matchesFirst, withState })));
    }
    return records;
  }

  async get(organizationId: string, tableId: string, rowId: string): Promise<ServiceResult<RowView>> {
    const table = await this.table(organizationId, tableId);
    const record = await this.rows.find(table, rowId);
    if (!record) throw notFound();
    return { data: await this.view(table, record) };
  }

  /**
   * Creates the row `rowId` (the gateway's call id, the same when it sends the call again). A send that
   * finds that row committed by an earlier one, whose answer was lost, answers it instead of a conflict.
   */
  async create(organizationId: string, tableId: string, data: Record<string, unknown>, rowId: string = randomUUID()): Promise<ServiceResult<RowView>> {
    try {
      return await this.insertNew(organizationId, tableId, data, rowId);
    } catch (error) {
      const committed = await this.committedEarlier(organizationId, tableId, rowId).catch(() => undefined);
      if (committed) return committed;
      throw error;
    }
  }

  /** Only a create that failed asks: the hot path reads nothing before its one statement. */
  private async committedEarlier(organizationId: string, tableId: string, rowId: string): Promise<ServiceResult<RowView> | undefined> {
    const table = await this.cache.get(organizationId, tableId);
    const record = table ? await this.rows.find(table, rowId) : undefined;
    return table && record ? { data: await this.view(table, record) } : undefined;
  }

  private async insertNew(organizationId: string, tableId: string, data: Record<string, unknown>, rowId: string): Promise<ServiceResult<RowView>> {
    const uploads = await this.files.checkUploads({ id: tableId, organizationId }, [data]);
    const record = await this.againstCachedTable(organizationId, tableId, (table) => {
      const values = validateRowData(table.fields, data, 'create');
      // Attaching uploads claims them in the same transaction as the insert; other creates stay one statement.
      return withUniqueValues(table, () =>
        uploads.size ? this.db.transaction((tx) => this.insert(tx, table, rowId, values, uploads)) : this.insert(this.db, table, rowId, values, uploads),
      );
    });
    return { data: await this.view(record.table, record.written) };
  }

  /**
   * Runs a write checked against the cached copy of the table; when it wrote nothing because the table's
   * version moved (answered undefined), or named a rows table or column a concurrent change has just
   * dropped, reloads the table and runs it again.
   */
  async againstCachedTable<T>(organizationId: string, tableId: string, write: (table: UserTable) => Promise<T | undefined>): Promise<{ table: UserTable; written: T }> {
    let table = await this.cache.get(organizationId, tableId);
    for (let attempt = 1; table; attempt += 1) {
      const current = table;
      try {
        const written = await write(current);
        if (written !== undefined) return { table: current, written };
      } catch (error) {
        if (!(error instanceof TableMoved) && !isPgError(error, PgErrorCode.UndefinedTable, PgErrorCode.UndefinedColumn)) throw error;
      }
      if (attempt >= CREATE_ATTEMPTS) throw AppError.internal('The table kept changing; try again');
      table = await this.cache.reload(organizationId, tableId);
    }
    throw AppError.notFound('Table');
  }

  /** Undefined when the table's version moved since `table` was read; a transaction then rolls back. */
  private async insert(db: Sql, table: UserTable, rowId: string, values: Map<Field, unknown>, uploads: CheckedUploads): Promise<RowRecord | undefined> {
    await this.files.settle(db, table, values, uploads);
    const row = await this.files.present(table, rowDataOf(table.fields, values));
    const event = rowEvent('row.created', table, rowId, row);
    if (db === this.db) return this.gathered(table, { id: rowId, values, event });
    const record = await this.rows.create(table, rowId, values, event, db);
    if (!record) throw new TableMoved();
    return record;
  }

  /** Written with the creates of its table that arrive with it; one that the shared statement left out is written alone. */
  private async gathered(table: UserTable, create: RowCreate): Promise<RowRecord | undefined> {
    const outcome = await this.groups.write(table, create);
    return outcome === 'alone' ? this.rows.create(table, create.id, create.values, create.event) : outcome.record;
  }

  async update(organizationId: string, tableId: string, rowId: string, data: Record<string, unknown>): Promise<ServiceResult<RowView>> {
    const uploads = await this.files.checkUploads({ id: tableId, organizationId }, [data]);
    const view = await this.db.transaction(async (client) => {
      // FOR SHARE: a table change (FOR UPDATE) cannot slip between checking the values and writing them.
      const table = await this.tables.find(organizationId, tableId, client, 'share');
      if (!table) throw AppError.notFound('Table');
      const values = validateRowData(table.fields, data, 'update');
      const before = await this.rows.find(table, rowId, client, true);
      if (!before) throw notFound();
      const { row, event } = await this.change(client, table, before, values, uploads);
      if (event) await TABLES_OUTBOX.write(client, [event]);
      return row;
    });
    return { data: view };
  }

  /**
   * Writes the values of a PATCH that differ from the locked row `before`; answers the row as it now is
   * and its `row.updated` event, or no event when no value changed (then nothing is written).
   */
  async change(
    client: Sql,
    table: UserTable,
    before: RowRecord,
    values: Map<Field, unknown>,
    uploads: CheckedUploads,
    path?: string,
  ): Promise<{ row: RowView; event?: DomainEvent }> {
    const previous = rowView(table.fields, before);
    await this.files.settle(client, table, values, uploads, previous.data, path);
    const changed = changedValues(values, previous.data);
    if (changed.size === 0) return { row: { ...previous, data: await this.files.present(table, previous.data) } };
    checkRowSize({ ...previous.data, ...Object.fromEntries([...changed].map(([field, value]) => [field.slug, value])) }, path ?? 'data');
    const record = await withUniqueValues(table, () => this.rows.update(client, table, before.id, changed), {
      values: [changed],
      pathOf: () => path ?? 'data',
    });
    if (!record) throw notFound();
    const row = rowView(table.fields, record);
    const changedFields = [...changed.keys()].map((field) => field.slug);
    await Promise.all([this.files.present(table, row.data), this.files.present(table, previous.data)]);
    return { row, event: rowUpdatedEvent(table, before.id, row.data, previous.data, changedFields) };
  }

  async remove(organizationId: string, tableId: string, rowId: string): Promise<ServiceResult<never>> {
    await this.db.transaction(async (client) => {
      const table = await this.tables.find(organizationId, tableId, client, 'share');
      if (!table) throw AppError.notFound('Table');
      const record = await this.rows.delete(client, table, rowId);
      if (!record) throw notFound();
      const row = rowView(table.fields, record);
      await this.files.dropRow(client, table, row.data);
      await TABLES_OUTBOX.write(client, [rowEvent('row.deleted', table, rowId, await this.files.present(table, row.data))]);
    });
    return { message: 'Row deleted' };
  }
}
