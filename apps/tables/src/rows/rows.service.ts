import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RowView, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { writeToOutbox } from '@platform/persistence';
import { compileFilter } from '../filter/filter-compiler';
import { parseFilter } from '../filter/filter-parser';
import { SqlParameters } from '../filter/sql-parameters';
import { PG_UNDEFINED_COLUMN, PG_UNDEFINED_TABLE, pgCode, TablesDb } from '../storage/tables-db';
import type { UserTable } from '../tables/user-table';
import { UserTableCache } from '../tables/user-table.cache';
import { UserTableRepository } from '../tables/user-table.repository';
import { validateRowData } from './field-values';
import { rowDataOf, rowView } from './row-record';
import { rowEvent } from './row-events';
import { orderBy, SortOrder } from './row-sort';
import { RowsRepository } from './rows.repository';

const SCHEMA = 'tables';
/** A table changed under a cached copy at most this many times in a row before the create gives up. */
const CREATE_ATTEMPTS = 3;

export interface RowListParams {
  page: number;
  limit: number;
  sort?: string;
  order?: SortOrder;
  filter?: string;
}

function notFound(): AppError {
  return AppError.notFound('Row');
}

@Injectable()
export class RowsService {
  constructor(
    private readonly db: TablesDb,
    private readonly tables: UserTableRepository,
    private readonly cache: UserTableCache,
    private readonly rows: RowsRepository,
  ) {}

  private async table(organizationId: string, tableId: string): Promise<UserTable> {
    const table = await this.tables.find(organizationId, tableId);
    if (!table) throw AppError.notFound('Table');
    return table;
  }

  async list(organizationId: string, tableId: string, query: RowListParams): Promise<ServiceResult<RowView[]>> {
    const table = await this.table(organizationId, tableId);
    const filter = parseFilter(query.filter, table.fields);
    const order = orderBy(query.sort, query.order, table.fields);
    const params = new SqlParameters();
    const where = filter ? compileFilter(filter, params) : undefined;
    const countParams = [...params.values];
    const [records, total] = await Promise.all([
      this.rows.page(table, { where, params, orderBy: order, limit: query.limit, offset: (query.page - 1) * query.limit }),
      // Unfiltered, the sharded counter already holds the exact total; counting a million rows would not be cheap.
      where ? this.rows.count(table, where, countParams) : Promise.resolve(table.rowCount),
    ]);
    return { data: records.map((record) => rowView(table.fields, record)), pagination: { page: query.page, limit: query.limit, total } };
  }

  async get(organizationId: string, tableId: string, rowId: string): Promise<ServiceResult<RowView>> {
    const table = await this.table(organizationId, tableId);
    const record = await this.rows.find(table, rowId);
    if (!record) throw notFound();
    return { data: rowView(table.fields, record) };
  }

  async create(organizationId: string, tableId: string, data: Record<string, unknown>): Promise<ServiceResult<RowView>> {
    let table = await this.cache.get(organizationId, tableId);
    for (let attempt = 1; table; attempt += 1) {
      const values = validateRowData(table.fields, data, 'create');
      const rowId = randomUUID();
      const full = rowDataOf(table.fields, values);
      try {
        const record = await this.rows.create(table, rowId, values, rowEvent('row.created', table, rowId, full));
        if (record) return { data: rowView(table.fields, record) };
      } catch (error) {
        // The cached copy named a rows table or column that a concurrent change has just dropped.
        if (pgCode(error) !== PG_UNDEFINED_TABLE && pgCode(error) !== PG_UNDEFINED_COLUMN) throw error;
      }
      if (attempt >= CREATE_ATTEMPTS) throw AppError.internal('The table kept changing; try again');
      table = await this.cache.reload(organizationId, tableId);
    }
    throw AppError.notFound('Table');
  }

  async update(organizationId: string, tableId: string, rowId: string, data: Record<string, unknown>): Promise<ServiceResult<RowView>> {
    const view = await this.db.transaction(async (client) => {
      // FOR SHARE: a table change (FOR UPDATE) cannot slip between checking the values and writing them.
      const table = await this.tables.find(organizationId, tableId, client, 'share');
      if (!table) throw AppError.notFound('Table');
      const values = validateRowData(table.fields, data, 'update');
      const record = await this.rows.update(client, table, rowId, values);
      if (!record) throw notFound();
      const row = rowView(table.fields, record);
      await writeToOutbox(client, SCHEMA, [rowEvent('row.updated', table, rowId, row.data)]);
      return row;
    });
    return { data: view };
  }

  async remove(organizationId: string, tableId: string, rowId: string): Promise<ServiceResult> {
    await this.db.transaction(async (client) => {
      const table = await this.tables.find(organizationId, tableId, client, 'share');
      if (!table) throw AppError.notFound('Table');
      const record = await this.rows.delete(client, table, rowId);
      if (!record) throw notFound();
      await writeToOutbox(client, SCHEMA, [rowEvent('row.deleted', table, rowId, rowView(table.fields, record).data)]);
    });
    return { message: 'Row deleted' };
  }
}
