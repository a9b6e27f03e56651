import type { Schema } from '@org-data-platform/sdk';
import type { FormEvent } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import type { Column } from '../ui/data-table';
import { useAction } from '../ui/hooks';
import { PagedTable, usePagedList } from '../ui/paged-list';
import { fieldsToCreate, newDraft } from './field-drafts';
import { TableForm, useTableDraft } from './table-form';
import { TableView } from './table-view';

export function TablesPage({ route }: { route: string[] }) {
  const [tableId] = route;
  if (tableId) return <TableView key={tableId} tableId={tableId} tab={route[1]} />;
  return <TablesList />;
}

const COLUMNS: Column<Schema<'TableListItem'>>[] = [
  { header: 'Name', cell: (table) => <a href={href('tables', table.id)}>{table.name}</a> },
  { header: 'Slug', cell: (table) => <code>{table.slug}</code> },
  { header: 'Rows', cell: (table) => table.row_count.toLocaleString() },
  { header: 'Updated', cell: (table) => new Date(table.updated_at).toLocaleString() },
];

function TablesList() {
  const { api, access } = useSession();
  const tables = usePagedList((query) => api.GET('/tables', { params: { query } }));
  return (
    <section>
      <h1>Tables</h1>
      <PagedTable list={tables} label="Tables" empty="No tables yet." columns={COLUMNS} />
      {access.tables.write ? <CreateTable /> : null}
    </section>
  );
}

function CreateTable() {
  const { api } = useSession();
  const draft = useTableDraft({ name: '', description: '', drafts: () => [newDraft()] });
  const { name, description, drafts } = draft;
  const create = useAction(
    () => api.POST('/tables', { body: { name, ...(description ? { description } : {}), fields: fieldsToCreate(drafts) } }),
    (created) => `Created ${created.data.name}`,
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await create.run();
    if (created) go('tables', created.data.id);
  };
  return (
    <TableForm
      heading={{ id: 'create-table', text: 'New table' }}
      submitLabel="Create table"
      draft={draft}
      sentKeys={drafts.map((field) => field.key)}
      action={create}
      onSubmit={(event) => void submit(event)}
    />
  );
}
