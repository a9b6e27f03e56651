import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainEvent, eventSubject } from '@contracts';
import type { Field } from '../fields/field';
import { SqlParameters } from '../filter/sql-parameters';
import { COLUMN_KINDS } from '../storage/column-types';
import { ident, qualified } from '../storage/identifiers';
import { Queryable, TablesDb } from '../storage/tables-db';
import type { UserTable } from '../tables/user-table';
import { ROW_COUNT_SLOTS } from '../tables/user-table.repository';
import { columnParameter, RowRecord, rowSelectList } from './row-record';

export interface RowPageQuery {
  where?: string;
  params: SqlParameters;
  orderBy: string;
  limit: number;
  offset: number;
}

/** Rows of one user table, in its own physical table; every value is a bind parameter. */
@Injectable()
export class RowsRepository {
  constructor(private readonly db: TablesDb) {}

  /**
   * Inserts the row, bumps one slot of the row counter and writes the event, in one statement (one round
   * trip, one implicit transaction). Nothing is written unless the table still has the version the values
   * were checked against; then the answer is undefined and the caller reloads the table.
   */
  async create(table: UserTable, rowId: string, values: Map<Field, unknown>, event: DomainEvent): Promise<RowRecord | undefined> {
    const params = new SqlParameters();
    const tableId = params.add(table.id);
    const guard = `SELECT 1 FROM tables.user_tables WHERE id = ${tableId} AND organization_id = ${params.add(table.organizationId)} AND version = ${params.add(table.version)}`;
    const columns = ['id'];
    const expressions = [`${params.add(rowId)}::uuid`];
    for (const [field, value] of values) {
      columns.push(ident(field.column));
      expressions.push(`${params.add(columnParameter(field, value))}::${COLUMN_KINDS[field.fieldType].castType}`);
    }
    const sql = `WITH guard AS (${guard}),
      inserted AS (INSERT INTO ${qualified(table.storageName)} (${columns.join(', ')}) SELECT ${expressions.join(', ')} FROM guard
        RETURNING ${rowSelectList(table.fields)}),
      counted AS (UPDATE tables.row_counts SET n = n + 1 WHERE table_id = ${tableId} AND slot = ${params.add(randomInt(ROW_COUNT_SLOTS))}
        AND EXISTS (SELECT 1 FROM inserted)),
      published AS (INSERT INTO tables.outbox (id, subject, payload)
        SELECT ${params.add(event.id)}, ${params.add(eventSubject(event.organization_id, event.event))}, ${params.add(JSON.stringify(event))}::json FROM inserted)
      SELECT * FROM inserted`;
    const { rows } = await this.db.pool.query<RowRecord>(sql, params.values);
    return rows[0];
  }

  async find(table: UserTable, rowId: string): Promise<RowRecord | undefined> {
    const { rows } = await this.db.pool.query<RowRecord>(`SELECT ${rowSelectList(table.fields)} FROM ${qualified(table.storageName)} WHERE id = $1`, [rowId]);
    return rows[0];
  }

  async update(db: Queryable, table: UserTable, rowId: string, values: Map<Field, unknown>): Promise<RowRecord | undefined> {
    const params = new SqlParameters();
    const sets = ['updated_at = now()'];
    for (const [field, value] of values) {
      sets.push(`${ident(field.column)} = ${params.add(columnParameter(field, value))}::${COLUMN_KINDS[field.fieldType].castType}`);
    }
    const { rows } = await db.query<RowRecord>(
      `UPDATE ${qualified(table.storageName)} SET ${sets.join(', ')} WHERE id = ${params.add(rowId)} RETURNING ${rowSelectList(table.fields)}`,
      params.values,
    );
    return rows[0];
  }

  async delete(db: Queryable, table: UserTable, rowId: string): Promise<RowRecord | undefined> {
    const { rows } = await db.query<RowRecord>(
      `WITH deleted AS (DELETE FROM ${qualified(table.storageName)} WHERE id = $1 RETURNING ${rowSelectList(table.fields)}),
        counted AS (UPDATE tables.row_counts SET n = n - 1 WHERE table_id = $2 AND slot = $3 AND EXISTS (SELECT 1 FROM deleted))
       SELECT * FROM deleted`,
      [rowId, table.id, randomInt(ROW_COUNT_SLOTS)],
    );
    return rows[0];
  }

  async page(table: UserTable, query: RowPageQuery): Promise<RowRecord[]> {
    const where = query.where ? `WHERE ${query.where}` : '';
    const limit = query.params.add(query.limit);
    const offset = query.params.add(query.offset);
    const { rows } = await this.db.pool.query<RowRecord>(
      `SELECT ${rowSelectList(table.fields)} FROM ${qualified(table.storageName)} ${where} ORDER BY ${query.orderBy} LIMIT ${limit} OFFSET ${offset}`,
      query.params.values,
    );
    return rows;
  }

  async count(table: UserTable, where: string, params: unknown[]): Promise<number> {
    const { rows } = await this.db.pool.query<{ total: string }>(`SELECT count(*) AS total FROM ${qualified(table.storageName)} WHERE ${where}`, params);
    return Number(rows[0].total);
  }
}
