import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import { ConfirmButton, ErrorNote, Outcome } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { draftOf, fieldChanges } from './field-drafts';
import { ExportsPanel } from './exports-panel';
import { ImportsPanel } from './imports-panel';
import { RowsGrid } from './rows-grid';
import { TableForm, useTableDraft } from './table-form';

type Table = Schema<'TableDetail'>;
const TABS = [
  { tab: 'rows', title: 'Rows' },
  { tab: 'fields', title: 'Fields' },
  { tab: 'imports', title: 'Import' },
  { tab: 'exports', title: 'Export' },
] as const;

export function TableView({ tableId, tab = 'rows' }: { tableId: string; tab?: string }) {
  const { api, access } = useSession();
  const table = useLoad(() => api.GET('/tables/{table_id}', { params: { path: { table_id: tableId } } }).then((answer) => answer.data), tableId);
  if (!table.data) {
    return (
      <section>
        <p>
          <a href={href('tables')}>← Tables</a>
        </p>
        {table.loading ? <p role="status">Loading…</p> : <ErrorNote error={table.error} />}
      </section>
    );
  }
  // Exports read (tables:read); fields and imports write.
  const shown = TABS.filter(({ tab: name }) => name === 'rows' || name === 'exports' || access.tables.write);
  return (
    <section>
      <p>
        <a href={href('tables')}>← Tables</a>
      </p>
      <h1>{table.data.name}</h1>
      <p className="muted">
        <code>{table.data.slug}</code> · {table.data.row_count.toLocaleString()} rows{table.data.description ? ` · ${table.data.description}` : ''}
      </p>
      <nav className="tabs" aria-label="Table views">
        {shown.map(({ tab: name, title }) => (
          <a key={name} href={href('tables', tableId, name)} aria-current={tab === name ? 'page' : undefined}>
            {title}
          </a>
        ))}
      </nav>
      {tab === 'fields' && access.tables.write ? (
        <TableSettings table={table.data} onSaved={table.reload} />
      ) : tab === 'imports' && access.tables.write ? (
        <ImportsPanel table={table.data} onImported={table.reload} />
      ) : tab === 'exports' ? (
        <ExportsPanel table={table.data} />
      ) : (
        <RowsGrid table={table.data} onRowsChanged={table.reload} />
      )}
    </section>
  );
}

/** Name, description and fields of a table, saved together; and its deletion. */
function TableSettings({ table, onSaved }: { table: Table; onSaved(): void }) {
  const { api } = useSession();
  const draft = useTableDraft({ name: table.name, description: table.description ?? '', drafts: () => table.fields.map(draftOf) });
  const { name, description, drafts, setDrafts } = draft;
  const [sentKeys, setSentKeys] = useState<string[]>([]);
  const save = useAction(
    async () => {
      const { fields, remove_fields, keys } = fieldChanges(table.fields, drafts);
      setSentKeys(keys);
      const body: Schema<'UpdateTableBody'> = {
        ...(name !== table.name ? { name } : {}),
        ...(description !== (table.description ?? '') ? { description: description || null } : {}),
        ...(fields.length > 0 ? { fields } : {}),
        ...(remove_fields.length > 0 ? { remove_fields } : {}),
      };
      const { data } = await api.PATCH('/tables/{table_id}', { params: { path: { table_id: table.id } }, body });
      setDrafts(data.fields.map(draftOf));
      onSaved();
      return data;
    },
    (saved) => `Saved ${saved.name}`,
  );
  const remove = useAction(async () => {
    await api.DELETE('/tables/{table_id}', { params: { path: { table_id: table.id } } });
    go('tables');
  });
  const submit = submitting(save.run);
  return (
    <>
      <TableForm
        heading={{ id: 'settings-title', text: 'Name and fields' }}
        submitLabel="Save changes"
        draft={draft}
        sentKeys={sentKeys}
        action={save}
        onSubmit={submit}
      />
      <div className="card danger-zone">
        <h2>Delete this table</h2>
        <p>Its rows and files go with it.</p>
        <ConfirmButton label="Delete table" confirm={`Delete ${table.name} for good`} disabled={remove.busy} onConfirm={() => void remove.run()} />
        <Outcome action={remove} />
      </div>
    </>
  );
}
