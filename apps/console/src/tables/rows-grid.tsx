import type { Schema } from '@org-data-platform/sdk';
import { type FormEvent, useState } from 'react';
import { useSession } from '../session-context';
import { ConfirmButton, ErrorNote, Outcome, ScrollBox } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import type { FieldView } from './field-drafts';
import { FilterBuilder } from './filter-builder';
import { NewRow } from './new-row';
import { RowCell } from './row-cell';

type Table = Schema<'TableDetail'>;
interface Query {
  sort: string;
  order: 'asc' | 'desc';
  filter?: string;
  limit: number;
}

/** The rows of a table: sort by any column, filter, page by cursor, edit in place, add and delete. */
export function RowsGrid({ table, onRowsChanged }: { table: Table; onRowsChanged(): void }) {
  const { api, access } = useSession();
  const [query, setQuery] = useState<Query>({ sort: 'created_at', order: 'asc', limit: 25 });
  // The cursors of the pages before this one, to go back; undefined is the first page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [round, setRound] = useState(0);
  const rows = useLoad(
    () => api.GET('/tables/{table_id}/rows', { params: { path: { table_id: table.id }, query: { ...query, ...(cursor ? { cursor } : {}) } } }),
    JSON.stringify([table.id, query, cursor, round]),
  );
  const refresh = () => {
    setRound((n) => n + 1);
    onRowsChanged();
  };
  const restart = (next: Partial<Query>) => {
    setQuery({ ...query, ...next });
    setCursor(undefined);
    setCursors([]);
    setSelected(new Set());
  };
  const sortBy = (slug: string) => restart(query.sort === slug ? { order: query.order === 'asc' ? 'desc' : 'asc' } : { sort: slug, order: 'asc' });
  const deleteSelected = useAction(
    async (ids: string[]) => {
      await api.POST('/tables/{table_id}/rows/batch-delete', { params: { path: { table_id: table.id } }, body: { ids } });
      setSelected(new Set());
      refresh();
      return ids.length;
    },
    (count) => `Deleted ${count} row${count === 1 ? '' : 's'}`,
  );
  const deleteOne = useAction(
    async (id: string) => {
      await api.DELETE('/tables/{table_id}/rows/{row_id}', { params: { path: { table_id: table.id, row_id: id } } });
      refresh();
    },
    () => 'Row deleted',
  );
  const filterError = rows.error?.field?.startsWith('filter') ? rows.error : undefined;
  // A refused query (a filter naming a removed field, say) leaves no rows of the query before it on screen.
  const page = rows.error ? undefined : rows.data;
  const listed = page?.data ?? [];
  const columns: { slug: string; title: string; field?: FieldView }[] = [
    ...table.fields.map((field) => ({ slug: field.slug, title: field.name, field })),
    { slug: 'created_at', title: 'Created' },
  ];
  const writable = access.tables.write;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title">Rows</h2>
      <FilterBuilder fields={table.fields} error={filterError} onApply={(filter) => restart({ filter })} />
      {filterError ? null : <ErrorNote error={rows.error} />}
      <div className="toolbar">
        <span role="status">
          {rows.loading ? 'Loading…' : page ? `${page.pagination.total.toLocaleString()} row${page.pagination.total === 1 ? '' : 's'}${query.filter ? ' match' : ''}` : ''}
        </span>
        {writable ? (
          <>
            <ConfirmButton
              label={`Delete selected (${selected.size})`}
              confirm={`Delete ${selected.size} rows`}
              disabled={selected.size === 0 || deleteSelected.busy}
              onConfirm={() => void deleteSelected.run([...selected])}
            />
            <Outcome action={deleteSelected} />
            <Outcome action={deleteOne} />
          </>
        ) : null}
      </div>
      <ScrollBox label="Rows">
        <table className="grid">
          <caption className="visually-hidden">Rows of {table.name}</caption>
          <thead>
            <tr>
              {writable ? (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select every row on this page"
                    checked={listed.length > 0 && listed.every((row) => selected.has(row.id))}
                    onChange={(event) => setSelected(event.target.checked ? new Set(listed.map((row) => row.id)) : new Set())}
                  />
                </th>
              ) : null}
              {columns.map((column) => (
                <th key={column.slug} scope="col" aria-sort={query.sort === column.slug ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <button type="button" className="sort" onClick={() => sortBy(column.slug)}>
                    {column.title}
                    <span aria-hidden="true">{query.sort === column.slug ? (query.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
              {writable ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {listed.map((row, index) => (
              <tr key={row.id}>
                {writable ? (
                  <td>
                    <input type="checkbox" aria-label={`Select row ${index + 1}`} checked={selected.has(row.id)} onChange={(event) => toggle(row.id, event.target.checked)} />
                  </td>
                ) : null}
                {table.fields.map((field) => (
                  <RowCell key={field.slug} table={table} row={row} field={field} rowLabel={`row ${index + 1}`} editable={writable} onSaved={refresh} />
                ))}
                <td>{new Date(row.created_at).toLocaleString()}</td>
                {writable ? (
                  <td>
                    <ConfirmButton label="Delete" confirm="Delete row" onConfirm={() => void deleteOne.run(row.id)} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <nav className="pager" aria-label="Row pages">
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => {
            setCursor(cursors[cursors.length - 1]);
            setCursors(cursors.slice(0, -1));
          }}
        >
          Previous page
        </button>
        <PageSize value={query.limit} onChange={(limit) => restart({ limit })} />
        <button
          type="button"
          disabled={!page?.pagination.next_cursor}
          onClick={() => {
            setCursors([...cursors, cursor]);
            setCursor(page?.pagination.next_cursor ?? undefined);
          }}
        >
          Next page
        </button>
      </nav>
      {writable ? <NewRow table={table} onCreated={refresh} /> : null}
    </section>
  );
}

function PageSize({ value, onChange }: { value: number; onChange(limit: number): void }) {
  const submit = (event: FormEvent) => event.preventDefault();
  return (
    <form onSubmit={submit} className="inline">
      <label className="inline">
        Rows a page
        <select value={value} onChange={(event) => onChange(Number(event.target.value))}>
          {[10, 25, 50, 100].map((size) => (
            <option key={size}>{size}</option>
          ))}
        </select>
      </label>
    </form>
  );
}
