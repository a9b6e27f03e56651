import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import { ErrorNote, Outcome } from '../ui/feedback';
import { useAction } from '../ui/hooks';
import { type Draft, draftOfValue, valueOfDraft } from './values';
import { ValueInput } from './value-input';

/** A form with an input per field; empty inputs are left out of the new row. */
export function NewRow({ table, onCreated }: { table: Schema<'TableDetail'>; onCreated(): void }) {
  const { api } = useSession();
  const blank = () => Object.fromEntries(table.fields.map((field) => [field.slug, draftOfValue(field, undefined)]));
  const [drafts, setDrafts] = useState<Record<string, Draft>>(blank);
  const create = useAction(
    async () => {
      const data: Record<string, unknown> = {};
      for (const field of table.fields) {
        const value = valueOfDraft(field, drafts[field.slug]);
        if (value !== null && !(field.field_type === 'checkbox' && value === false)) data[field.slug] = value;
      }
      await api.POST('/tables/{table_id}/rows', { params: { path: { table_id: table.id } }, body: { data: data as Schema<'RowBody'>['data'] } });
      setDrafts(blank());
      onCreated();
    },
    () => 'Row added',
  );
  const submit = submitting(create.run);
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-row-title">
      <h3 id="new-row-title">New row</h3>
      <div className="form-grid">
        {table.fields.map((field) => (
          <div key={field.slug} className="form-field">
            <span className="label" aria-hidden="true">
              {field.name}
              {field.is_required ? ' *' : ''}
            </span>
            <ValueInput
              field={field}
              tableId={table.id}
              label={`New row ${field.name}${field.is_required ? ' (required)' : ''}`}
              draft={drafts[field.slug]}
              onChange={(draft) => setDrafts({ ...drafts, [field.slug]: draft })}
            />
            {create.error?.field === `data.${field.slug}` || create.error?.field?.startsWith(`data.${field.slug}[`) ? <ErrorNote error={create.error} /> : null}
          </div>
        ))}
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={create.busy}>
          Add row
        </button>
        {create.error?.field?.startsWith('data.') ? null : <Outcome action={create} />}
      </div>
    </form>
  );
}
