import { ApiError, type ApiClient, type Schema } from './client';
import type { paths } from './api-types';

type ListRowsQuery = NonNullable<paths['/tables/{table_id}/rows']['get']['parameters']['query']>;

/** The filter, sort and page size of a walk over a table's rows; the walk itself does the paging. */
export type AllRowsQuery = Omit<ListRowsQuery, 'page'>;

const PAGE_SIZE = 100;

/**
 * Every row of a table that matches the query, in order, fetched a page at a time as the loop asks.
 * It follows `pagination.next_cursor` when the API answers one (constant cost however deep), and
 * otherwise asks for the next page number until `total` is reached.
 *
 *     for await (const row of allRows(api, tableId, { filter: JSON.stringify({ status: 'open' }) })) { ... }
 */
export async function* allRows(api: ApiClient, tableId: string, query: AllRowsQuery = {}): AsyncGenerator<Schema<'RowView'>, void, undefined> {
  const limit = query.limit ?? PAGE_SIZE;
  let page = 1;
  let cursor: string | undefined;
  for (;;) {
    const pageQuery = cursor === undefined ? { ...query, limit, page } : { ...query, limit, cursor };
    const { data, error, response } = await api.GET('/tables/{table_id}/rows', { params: { path: { table_id: tableId }, query: pageQuery } });
    if (error) throw new ApiError(response.status, error);
    yield* data.data;
    const next = 'next_cursor' in data.pagination ? data.pagination.next_cursor : undefined;
    if (typeof next === 'string') {
      cursor = next;
      continue;
    }
    if (next === null || data.data.length < limit || page * limit >= data.pagination.total) return;
    page += 1;
  }
}
