import type { Schema } from '@org-data-platform/sdk';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useSession } from '../session-context';
import { ErrorNote } from '../ui/feedback';
import { useAction } from '../ui/hooks';
import type { FieldView } from './field-drafts';
import { type Draft, displayValue, draftOfValue, valueOfDraft } from './values';
import { ValueInput } from './value-input';

type Row = Schema<'RowView'>;

/** One value of the grid: shown, and edited in place (Enter or Save to write it, Escape to leave it). */
export function RowCell({ table, row, field, rowLabel, editable, onSaved }: { table: Schema<'TableDetail'>; row: Row; field: FieldView; rowLabel: string; editable: boolean; onSaved(): void }) {
  const { api } = useSession();
  const [draft, setDraft] = useState<Draft | undefined>();
  const value = row.data[field.slug];
  const save = useAction(async (next: Draft) => {
    await api.PATCH('/tables/{table_id}/rows/{row_id}', {
      params: { path: { table_id: table.id, row_id: row.id } },
      body: { data: { [field.slug]: valueOfDraft(field, next) } as Schema<'RowBody'>['data'] },
    });
    setDraft(undefined);
    onSaved();
  });
  const label = `${field.name} of ${rowLabel}`;
  if (draft === undefined) {
    return (
      <td>
        <Shown field={field} value={value} />
        {editable ? (
          <button type="button" className="edit" aria-label={`Edit ${label}`} onClick={() => setDraft(draftOfValue(field, value))}>
            ✎
          </button>
        ) : null}
        <ErrorNote error={save.error} />
      </td>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(draft);
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      setDraft(undefined);
      save.reset();
    }
  };
  return (
    <td className="editing">
      <form onSubmit={submit} onKeyDown={escape}>
        <ValueInput field={field} tableId={table.id} label={label} draft={draft} stored={value} onChange={setDraft} autoFocus />
        <button type="submit" className="small primary" disabled={save.busy}>
          Save
        </button>
        <button type="button" className="small" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
        <ErrorNote error={save.error} />
      </form>
    </td>
  );
}

function Shown({ field, value }: { field: FieldView; value: Row['data'][string] | undefined }) {
  if (field.field_type === 'attachment' && Array.isArray(value)) {
    return (
      <span>
        {(value as { url: string; filename: string }[]).map((file, index) => (
          <a key={index} href={file.url} target="_blank" rel="noreferrer">
            {file.filename}
          </a>
        ))}
      </span>
    );
  }
  if (field.field_type === 'url' && typeof value === 'string') {
    return (
      <a href={value} target="_blank" rel="noreferrer">
        {value}
      </a>
    );
  }
  return <span>{displayValue(field, value)}</span>;
}
