import { type FormEvent, useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { ErrorNote, Pager, ScrollBox } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { fieldsToCreate, newDraft } from './field-drafts';
import { TableForm, useTableDraft } from './table-form';
import { TableView } from './table-view';

const PAGE_SIZE = 50;

export function TablesPage({ route }: { route: string[] }) {
  const [tableId] = route;
  if (tableId) return <TableView key={tableId} tableId={tableId} tab={route[1]} />;
  return <TablesList />;
}

function TablesList() {
  const { api, access } = useSession();
  const [page, setPage] = useState(1);
  const tables = useLoad(() => api.GET('/tables', { params: { query: { page, limit: PAGE_SIZE } } }), String(page));
  return (
    <section>
      <h1>Tables</h1>
      <ErrorNote error={tables.error} />
      {tables.data ? (
        tables.data.data.length === 0 ? (
          <p>No tables yet.</p>
        ) : (
          <ScrollBox label="Tables">
            <table>
              <caption className="visually-hidden">Tables</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Slug</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {tables.data.data.map((table) => (
                  <tr key={table.id}>
                    <td>
                      <a href={href('tables', table.id)}>{table.name}</a>
                    </td>
                    <td>
                      <code>{table.slug}</code>
                    </td>
                    <td>{table.row_count.toLocaleString()}</td>
                    <td>{new Date(table.updated_at).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )
      ) : tables.loading ? (
        <p role="status">Loading…</p>
      ) : null}
      {tables.data ? <Pager page={page} limit={PAGE_SIZE} total={tables.data.pagination.total} onPage={setPage} /> : null}
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
