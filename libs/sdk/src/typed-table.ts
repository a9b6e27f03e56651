import { ApiError, type ApiClient, type Schema } from './client';
import { allRows, type AllRowsQuery } from './rows';
import { rowFilter, type RowFilter } from './row-filter';

/** What a row's `data` may hold, as the API types it. */
export type RowValues = Schema<'RowView'>['data'];

/** What a write may put in an attachment value: an upload to attach, a stored file to keep, or a link. */
export type AttachmentWrite = Schema<'AttachmentUploadRef'> | Schema<'AttachmentKept'> | Schema<'AttachmentLink'>;

/** The shape a write takes for the caller's row data: attachment values (lists of objects) take `AttachmentWrite` entries. */
export type WriteData<Data> = {
  [Slug in keyof Data]: NonNullable<Data[Slug]> extends readonly (infer Entry)[] ? (Entry extends object ? AttachmentWrite[] | Extract<Data[Slug], null | undefined> : Data[Slug]) : Data[Slug];
};

/** A row whose `data` has the shape the caller described. */
export type TypedRow<Data> = Omit<Schema<'RowView'>, 'data'> & { data: Data };

type ListQuery = Omit<AllRowsQuery, 'filter'> & { page?: number; cursor?: string };

/**
 * One table's rows with `data` typed as the caller describes it (field slugs as keys). The API checks
 * every value against the table's fields; this type is the caller's own view of them, not a check.
 * Every call answers its data or throws an `ApiError`.
 *
 *     type Lead = { email: string; score?: number };
 *     const leads = typedTable<Lead>(api, tableId);
 *     const row = await leads.create({ email: 'ada@example.com' });
 *     for await (const lead of leads.all({ score: { gte: 10 } })) console.log(lead.data.email);
 */
export function typedTable<Data extends RowValues>(api: ApiClient, tableId: string) {
  const path = { table_id: tableId };
  const rows = <T>(result: { data?: { data: T }; error?: Schema<'ErrorResponse'>; response: Response }): T => {
    if (result.error || !result.data) throw new ApiError(result.response.status, result.error as Schema<'ErrorResponse'>);
    return result.data.data;
  };
  const typed = (row: Schema<'RowView'>) => row as TypedRow<Data>;
  return {
    async get(rowId: string): Promise<TypedRow<Data>> {
      return typed(rows(await api.GET('/tables/{table_id}/rows/{row_id}', { params: { path: { ...path, row_id: rowId } } })));
    },
    async create(data: WriteData<Data>): Promise<TypedRow<Data>> {
      return typed(rows(await api.POST('/tables/{table_id}/rows', { params: { path }, body: { data: data as RowValues } })));
    },
    async update(rowId: string, data: Partial<WriteData<Data>>): Promise<TypedRow<Data>> {
      return typed(rows(await api.PATCH('/tables/{table_id}/rows/{row_id}', { params: { path: { ...path, row_id: rowId } }, body: { data: data as RowValues } })));
    },
    async delete(rowId: string): Promise<void> {
      const result = await api.DELETE('/tables/{table_id}/rows/{row_id}', { params: { path: { ...path, row_id: rowId } } });
      if (result.error) throw new ApiError(result.response.status, result.error);
    },
    /** One page of the rows that match the filter, with the page's pagination. */
    async list(filter?: RowFilter<Data>, query: ListQuery = {}) {
      const result = await api.GET('/tables/{table_id}/rows', { params: { path, query: { ...query, ...(filter ? { filter: rowFilter(filter) } : {}) } } });
      if (result.error) throw new ApiError(result.response.status, result.error);
      return { rows: result.data.data.map(typed), pagination: result.data.pagination };
    },
    /** Every row that matches the filter, a page at a time as the loop asks. */
    async *all(filter?: RowFilter<Data>, query: Omit<ListQuery, 'page' | 'cursor'> = {}): AsyncGenerator<TypedRow<Data>, void, undefined> {
      for await (const row of allRows(api, tableId, { ...query, ...(filter ? { filter: rowFilter(filter) } : {}) })) yield typed(row);
    },
  };
}

export type TypedTable<Data extends RowValues> = ReturnType<typeof typedTable<Data>>;
