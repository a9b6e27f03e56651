import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@contracts';
import { Database, jsonTexts, queryRecurring, Sql } from '@platform/persistence';
import type { Field } from '../fields/field';
import { SqlParameters } from '../filter/sql-parameters';
import { COLUMN_KINDS } from '../storage/column-types';
import { ident, qualified } from '../storage/identifiers';
import { uniqueKeyExpression } from '../storage/rows-ddl';
import type { UserTable } from '../tables/user-table';
import { ROW_COUNTS_TABLE, TABLES_OUTBOX, USER_TABLES_TABLE } from '../tables-schema';
import { ROW_COUNT_SLOTS } from '../tables/user-table.repository';
import { columnParameter, RowRecord, rowSelectList, valueOfField } from './row-record';
import type { RowOrder } from './row-sort';

export interface RowPageQuery {
  /** Conditions AND-ed together (the filter, the keyset position), over `params`. */
  conditions: string[];
  params: SqlParameters;
  order: RowOrder;
  limit: number;
  offset?: number;
  /** Each row comes with the table's state (tableStateOf), read in the same statement. */
  withState?: boolean;
  /**
   * The conditions match few of the table's rows: read those (through the indexes that serve the
   * conditions) and sort them, instead of walking the sort order's index past every row that does not
   * match. The planner cannot tell the two apart when a text filter's cost is what decides.
   */
  matchesFirst?: boolean;
}

/** A row of a list, with its sort value as exact text for the next page's cursor. */
export type ListedRow = RowRecord & { cursor_key: string | null } & Partial<TableStateColumns>;

/** The table's version and row count as a read of its rows found them, in the same statement. */
export interface TableState {
  version: number;
  rowCount: number;
}

/** The columns a read adds for the table's state (tableStateColumns): null when the table is gone. */
interface TableStateColumns {
  table_version: number | null;
  table_row_count: string | null;
}

/** The table's state from a record a read answered with its columns; undefined when the table is gone or none came back. */
export function tableStateOf(record: Partial<TableStateColumns> | undefined): TableState | undefined {
  if (record?.table_version == null) return undefined;
  return { version: record.table_version, rowCount: Number(record.table_row_count ?? 0) };
}

/** A row an upsert wrote, and whether the write inserted it (false: it updated the row holding its key). */
export type UpsertedRow = RowRecord & { inserted: boolean };

/** Rows of one user table, in its own physical table; every value is a bind parameter. */
@Injectable()
export class RowsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the row, bumps one slot of the row counter and writes the event, in one statement (one round
   * trip, one implicit transaction). Nothing is written unless the table still has the version the values
   * were checked against; then the answer is undefined and the caller reloads the table.
   */
  async create(table: UserTable, rowId: string, values: Map<Field, unknown>, event: DomainEvent, db: Sql = this.db): Promise<RowRecord | undefined> {
    const params = new SqlParameters();
    const columns = ['id'];
    const expressions = [`${params.add(rowId)}::uuid`];
    for (const [field, value] of values) {
      columns.push(ident(field.column));
      expressions.push(`${params.add(columnParameter(field, value))}::${COLUMN_KINDS[field.fieldType].castType}`);
    }
    const sql = `WITH guard AS (${versionGuard(params, table)}),
      inserted AS (INSERT INTO ${qualified(table.storageName)} (${columns.join(', ')}) SELECT ${expressions.join(', ')} FROM guard
        RETURNING ${rowSelectList(table.fields)}),
      counted AS (${countInserted(params, table)}),
      published AS (${TABLES_OUTBOX.insertStatement([event], (value) => params.add(value), 'inserted')})
      SELECT * FROM inserted`;
    // The text is the same for every create that sets these fields: planned once per connection.
    const { rows } = await queryRecurring<RowRecord>(db, sql, params.values);
    if (rows[0]) TABLES_OUTBOX.written(db);
    return rows[0];
  }

  /** `forUpdate` locks the row in the caller's transaction, so the values read are the ones a change replaces. */
  async find(table: UserTable, rowId: string, db: Sql = this.db, forUpdate = false): Promise<RowRecord | undefined> {
    const lock = forUpdate ? ' FOR UPDATE' : '';
    const { rows } = await db.query<RowRecord>(`SELECT ${rowSelectList(table.fields)} FROM ${qualified(table.storageName)} WHERE id = $1${lock}`, [rowId]);
    return rows[0];
  }

  async update(db: Sql, table: UserTable, rowId: string, values: Map<Field, unknown>): Promise<RowRecord | undefined> {
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

  async delete(db: Sql, table: UserTable, rowId: string): Promise<RowRecord | undefined> {
    const { rows } = await db.query<RowRecord>(
      `WITH deleted AS (DELETE FROM ${qualified(table.storageName)} WHERE id = $1 RETURNING ${rowSelectList(table.fields)}),
        counted AS (UPDATE ${ROW_COUNTS_TABLE} SET n = n - 1 WHERE table_id = $2 AND slot = $3 AND EXISTS (SELECT 1 FROM deleted))
       SELECT * FROM deleted`,
      [rowId, table.id, randomInt(ROW_COUNT_SLOTS)],
    );
    return rows[0];
  }

  /** Inserts rows in one statement, adds them to one counter slot; answers the stored rows in the given order. */
  async insertMany(db: Sql, table: UserTable, rows: ReadonlyArray<{ id: string; values: Map<Field, unknown> }>): Promise<RowRecord[]> {
    const params = new SqlParameters();
    const columns = ['id', ...table.fields.map((field) => ident(field.column))];
    const tuples = rows.map(({ id, values }) => {
      const expressions = table.fields.map((field) => `${params.add(columnParameter(field, values.get(field) ?? null))}::${COLUMN_KINDS[field.fieldType].castType}`);
      return `(${[`${params.add(id)}::uuid`, ...expressions].join(', ')})`;
    });
    const { rows: records } = await db.query<RowRecord>(
      `INSERT INTO ${qualified(table.storageName)} (${columns.join(', ')}) VALUES ${tuples.join(', ')} RETURNING ${rowSelectList(table.fields)}`,
      params.values,
    );
    await this.addToRowCount(db, table, records.length);
    const byId = new Map(records.map((record) => [record.id, record]));
    return rows.map(({ id }) => byId.get(id) as RowRecord);
  }

  /**
   * Inserts many rows with one parameter per column (arrays unnested), so a statement's size does not grow
   * with its parameters' count; answers nothing.
   */
  async insertColumns(db: Sql, table: UserTable, rows: ReadonlyArray<{ id: string; values: Map<Field, unknown> }>): Promise<void> {
    if (rows.length === 0) return;
    const params = new SqlParameters();
    const input = unnestedRows(params, table, rows);
    await db.query(`INSERT INTO ${qualified(table.storageName)} (${input.columns}) SELECT ${input.values} FROM ${input.source}`, params.values);
    await this.addToRowCount(db, table, rows.length);
  }

  /**
   * Creates single rows that arrived together (RowCreateGroups), or a batch, in one statement: the rows, one
   * slot of the row counter, and one outbox entry that carries the events (`body`: each one's JSON) of the
   * rows written, in their order, as one message. A row whose id is already taken (a create sent again) is
   * left out with its event; `resent: 'never'` says none can be (the service drew every id), and spares the
   * insert its check of each. Nothing is written unless the table still has the version the values were
   * checked against. Answers the ids of the rows written and when they were written (their `created_at` and
   * `updated_at`, the statement's `now()`): the caller has their values. Its text is the same for every
   * write of the table's fields, so each connection plans it once (queryRecurring).
   */
  async createTogether(
    table: UserTable,
    rows: ReadonlyArray<{ id: string; values: Map<Field, unknown>; event: DomainEvent; body: string }>,
    resent: 'maybe' | 'never' = 'maybe',
  ): Promise<{ written: Set<string>; at: Date }> {
    const params = new SqlParameters();
    const input = unnestedRows(params, table, rows);
    const events = {
      ids: params.add(rows.map((row) => row.event.id)),
      rowIds: input.ids,
      bodies: params.add(jsonTexts(rows.map((row) => row.body))),
    };
    const sql = `WITH guard AS (${versionGuard(params, table)}),
      inserted AS (INSERT INTO ${qualified(table.storageName)} (${input.columns}) SELECT ${input.values} FROM ${input.source}, guard ORDER BY input.ord
        ${resent === 'never' ? '' : 'ON CONFLICT (id) DO NOTHING '}RETURNING id),
      counted AS (${countInserted(params, table)}),
      published AS (${TABLES_OUTBOX.insertWrittenStatement(rows[0].event, events, 'inserted', (value) => params.add(value))})
      SELECT count(*)::int AS n, CASE WHEN count(*) < ${params.add(rows.length)} THEN coalesce(array_agg(id), '{}') END AS ids, now() AS at FROM inserted`;
    const {
      rows: [{ n, ids, at }],
    } = await queryRecurring<{ n: number; ids: string[] | null; at: Date }>(this.db, sql, params.values);
    if (n > 0) TABLES_OUTBOX.written(this.db);
    // The ids come back only when some row was left out (a resent id): otherwise every row was written.
    return { written: new Set(ids ?? rows.map((row) => row.id)), at };
  }

  /** Locks the rows in id order (so two batches over the same rows cannot deadlock); answers those that exist. */
  async findManyForUpdate(db: Sql, table: UserTable, rowIds: string[]): Promise<Map<string, RowRecord>> {
    const { rows } = await db.query<RowRecord>(
      `SELECT ${rowSelectList(table.fields)} FROM ${qualified(table.storageName)} WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [rowIds],
    );
    return new Map(rows.map((record) => [record.id, record]));
  }

  /**
   * Locks, in id order, the rows whose unique `field` holds one of `values` (normalized, as stored), through
   * the field's unique index; answers them.
   */
  async findManyByUniqueForUpdate(db: Sql, table: UserTable, field: Field, values: unknown[]): Promise<RowRecord[]> {
    const { castType } = COLUMN_KINDS[field.fieldType];
    const { rows } = await db.query<RowRecord>(
      `SELECT ${rowSelectList(table.fields)} FROM ${qualified(table.storageName)}
       WHERE ${uniqueKeyExpression(field, ident(field.column))} IN (SELECT ${uniqueKeyExpression(field, 'v')} FROM unnest($1::${castType}[]) AS v)
       ORDER BY id FOR UPDATE`,
      [values],
    );
    return rows;
  }

  /**
   * One statement for a batch of rows with every field's value: a row whose `key` value a stored row holds
   * replaces that row's field values (the caller merged them) and keeps its id, the others are inserted
   * with theirs. Answers the written rows by id, each saying which happened.
   */
  async upsertMany(db: Sql, table: UserTable, key: Field, rows: ReadonlyArray<{ id: string; values: Map<Field, unknown> }>): Promise<Map<string, UpsertedRow>> {
    const params = new SqlParameters();
    const columns = ['id', ...table.fields.map((field) => ident(field.column))];
    const tuples = rows.map(({ id, values }) => {
      const expressions = table.fields.map((field) => `${params.add(columnParameter(field, values.get(field) ?? null))}::${COLUMN_KINDS[field.fieldType].castType}`);
      return `(${[`${params.add(id)}::uuid`, ...expressions].join(', ')})`;
    });
    const sets = [...table.fields.map((field) => `${ident(field.column)} = EXCLUDED.${ident(field.column)}`), 'updated_at = now()'];
    const { rows: records } = await db.query<UpsertedRow>(
      `INSERT INTO ${qualified(table.storageName)} AS t (${columns.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT ((${uniqueKeyExpression(key, ident(key.column))})) DO UPDATE SET ${sets.join(', ')}
       RETURNING ${rowSelectList(table.fields)}, (t.xmax = 0) AS inserted`,
      params.values,
    );
    await this.addToRowCount(db, table, records.filter((record) => record.inserted).length);
    return new Map(records.map((record) => [record.id, record]));
  }

  async deleteMany(db: Sql, table: UserTable, rowIds: string[]): Promise<RowRecord[]> {
    const { rows } = await db.query<RowRecord>(
      `DELETE FROM ${qualified(table.storageName)} WHERE id = ANY($1::uuid[]) RETURNING ${rowSelectList(table.fields)}`,
      [rowIds],
    );
    await this.addToRowCount(db, table, -rows.length);
    return rows;
  }

  private async addToRowCount(db: Sql, table: UserTable, delta: number): Promise<void> {
    if (delta === 0) return;
    await db.query(`UPDATE ${ROW_COUNTS_TABLE} SET n = n + $3 WHERE table_id = $1 AND slot = $2`, [table.id, randomInt(ROW_COUNT_SLOTS), delta]);
  }

  async page(table: UserTable, query: RowPageQuery): Promise<ListedRow[]> {
    const where = query.conditions.length ? `WHERE ${query.conditions.map((condition) => `(${condition})`).join(' AND ')}` : '';
    const limit = query.params.add(query.limit);
    const offset = query.offset ? ` OFFSET ${query.params.add(query.offset)}` : '';
    const rowsRead = `${qualified(table.storageName)} ${where}`;
    // Column names are the same in the table and in `matched`, so the list, key and order read either.
    const [matched, source] = query.matchesFirst ? [`WITH matched AS MATERIALIZED (SELECT * FROM ${rowsRead}) `, 'matched'] : ['', rowsRead];
    const state = query.withState ? `, ${tableStateColumns(query.params, table)}` : '';
    const { rows } = await this.db.query<ListedRow>(
      `${matched}SELECT ${rowSelectList(table.fields)}, ${query.order.keyExpression} AS cursor_key${state} FROM ${source}
       ORDER BY ${query.order.orderBy} LIMIT ${limit}${offset}`,
      query.params.values,
    );
    return rows;
  }

  /** The rows that meet `where`, with the table's state read in the same statement. */
  async count(table: UserTable, where: string, params: SqlParameters): Promise<{ total: number; state?: TableState }> {
    const { rows } = await this.db.query<{ total: string } & TableStateColumns>(
      `SELECT count(*) AS total, ${tableStateColumns(params, table)} FROM ${qualified(table.storageName)} WHERE ${where}`,
      params.values,
    );
    return { total: Number(rows[0].total), state: tableStateOf(rows[0]) };
  }
}

/**
 * Rows as one parameter per column, unnested into a source to INSERT ... SELECT from, in the given order
 * (`input.ord`). Arrays of arrays cannot be unnested, so list values (multi_select) travel as JSON text and
 * are turned back into text[] in SQL.
 */
function unnestedRows(params: SqlParameters, table: UserTable, rows: ReadonlyArray<{ id: string; values: Map<Field, unknown> }>) {
  const ids = params.add(rows.map((row) => row.id));
  const inputs = table.fields.map((field) => {
    const list = field.fieldType === 'multi_select';
    const column = rows.map(({ values }) => {
      const value = columnParameter(field, valueOfField(values, field) ?? null);
      return list && value !== null ? JSON.stringify(value) : value;
    });
    return `${params.add(column)}::${list ? 'text' : COLUMN_KINDS[field.fieldType].castType}[]`;
  });
  const outputs = table.fields.map((field, i) =>
    field.fieldType === 'multi_select' ? `CASE WHEN input.c${i} IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(input.c${i}::jsonb)) END` : `input.c${i}`,
  );
  const aliases = ['id', ...table.fields.map((_, i) => `c${i}`), 'ord'].join(', ');
  return {
    /** The placeholder of the rows' ids. */
    ids,
    columns: ['id', ...table.fields.map((field) => ident(field.column))].join(', '),
    values: ['input.id', ...outputs].join(', '),
    source: `unnest(${ids}::uuid[]${inputs.map((input) => `, ${input}`).join('')}) WITH ORDINALITY AS input(${aliases})`,
  };
}

/** A row only when the table still has the version a write's values were checked against: a write selects FROM it. */
function versionGuard(params: SqlParameters, table: UserTable): string {
  return `SELECT 1 FROM ${USER_TABLES_TABLE} WHERE id = ${params.add(table.id)} AND organization_id = ${params.add(table.organizationId)} AND version = ${params.add(table.version)}`;
}

/**
 * The table's version and row count as two columns (`table_version`, `table_row_count`) of a statement
 * over its rows: a read can then tell whether the copy of the table it was written against is still the
 * table's, and answer its row count, without a statement of its own.
 */
function tableStateColumns(params: SqlParameters, table: UserTable): string {
  const id = params.add(table.id);
  return `(SELECT version FROM ${USER_TABLES_TABLE} WHERE id = ${id} AND organization_id = ${params.add(table.organizationId)}) AS table_version,
    (SELECT COALESCE(sum(n), 0) FROM ${ROW_COUNTS_TABLE} WHERE table_id = ${id}) AS table_row_count`;
}

/** Adds the rows of the CTE `inserted` to one slot of the table's row counter. */
function countInserted(params: SqlParameters, table: UserTable): string {
  return `UPDATE ${ROW_COUNTS_TABLE} SET n = n + (SELECT count(*) FROM inserted) WHERE table_id = ${params.add(table.id)} AND slot = ${params.add(randomInt(ROW_COUNT_SLOTS))}
    AND EXISTS (SELECT 1 FROM inserted)`;
}
