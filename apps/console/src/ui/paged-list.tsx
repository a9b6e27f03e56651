import { type ReactNode, useState } from 'react';
import { type Column, DataTable } from './data-table';
import { ErrorNote, Pager } from './feedback';
import { type Loaded, useLoad } from './hooks';

/** Items a page of the lists that count their rows. */
export const PAGE_SIZE = 50;

interface Page<T> {
  data: T[];
  pagination: { total: number };
}

export interface PagedList<T> extends Loaded<Page<T>> {
  page: number;
  setPage(page: number): void;
}

/** A list the API pages and counts, read a page at a time (again when `key` changes). */
export function usePagedList<T>(load: (query: { page: number; limit: number }) => Promise<Page<T>>, key = ''): PagedList<T> {
  const [page, setPage] = useState(1);
  const list = useLoad(() => load({ page, limit: PAGE_SIZE }), `${page}:${key}`);
  return { ...list, page, setPage };
}

/** The page shown of a list: its error, a line when it is empty or still loading, its table, and the page numbers. */
export function PagedTable<T extends { id: string }>({ list, label, columns, empty }: { list: PagedList<T>; label: string; columns: Column<T>[]; empty: ReactNode }) {
  const items = list.data?.data;
  return (
    <>
      <ErrorNote error={list.error} />
      {items && items.length === 0 ? <p>{empty}</p> : null}
      {items && items.length > 0 ? <DataTable label={label} columns={columns} rows={items} rowKey={(item) => item.id} /> : null}
      {!items && list.loading ? <p role="status">Loading…</p> : null}
      {list.data ? <Pager page={list.page} limit={PAGE_SIZE} total={list.data.pagination.total} onPage={list.setPage} /> : null}
    </>
  );
}
