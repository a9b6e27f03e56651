import type { ShownError } from '../errors';
import { ErrorNote } from '../ui/feedback';
import { FIELD_TYPES, type FieldDraft, type FieldOptions, newDraft, SEARCHABLE_TYPES, UNIQUE_TYPES } from './field-drafts';

/**
 * Every field of a table with its type and options: name, required, and what the type takes
 * (precision, currency, values, default country, unique, searchable). Stored fields keep their type.
 */
export function FieldsEditor({ drafts, onChange, errorAt }: { drafts: FieldDraft[]; onChange(drafts: FieldDraft[]): void; errorAt?: { key: string; error: ShownError } }) {
  const update = (key: string, change: Partial<FieldDraft>) => onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
  return (
    <div className="fields-editor">
      {drafts.map((draft, index) => (
        <fieldset key={draft.key} className={draft.removed ? 'removed' : undefined}>
          <legend>
            Field {index + 1}
            {draft.id ? '' : ' (new)'}
            {draft.removed ? ' (to be removed)' : ''}
          </legend>
          <div className="row-of-inputs">
            <label>
              Name
              <input value={draft.name} disabled={draft.removed} onChange={(event) => update(draft.key, { name: event.target.value })} required />
            </label>
            <label>
              Type
              <select
                value={draft.field_type}
                disabled={draft.id !== undefined || draft.removed}
                onChange={(event) => update(draft.key, { field_type: event.target.value as FieldDraft['field_type'], options: {} })}
              >
                {FIELD_TYPES.map(({ type, label }) => (
                  <option key={type} value={type}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline">
              <input type="checkbox" checked={draft.is_required} disabled={draft.removed} onChange={(event) => update(draft.key, { is_required: event.target.checked })} />
              Required
            </label>
            {draft.id ? (
              <button type="button" onClick={() => update(draft.key, { removed: !draft.removed })}>
                {draft.removed ? 'Keep' : 'Remove'}
              </button>
            ) : (
              <button type="button" onClick={() => onChange(drafts.filter((other) => other.key !== draft.key))}>
                Remove
              </button>
            )}
          </div>
          {draft.removed ? null : <OptionsEditor draft={draft} onChange={(options) => update(draft.key, { options })} />}
          {errorAt?.key === draft.key ? <ErrorNote error={errorAt.error} /> : null}
        </fieldset>
      ))}
      <button type="button" onClick={() => onChange([...drafts, newDraft()])}>
        Add a field
      </button>
    </div>
  );
}

function OptionsEditor({ draft, onChange }: { draft: FieldDraft; onChange(options: FieldOptions): void }) {
  const { field_type: type, options } = draft;
  const set = (change: Partial<FieldOptions>) => onChange({ ...options, ...change });
  const number = (text: string) => (text === '' ? undefined : Number(text));
  return (
    <div className="row-of-inputs">
      {type === 'number' || type === 'currency' ? (
        <label>
          Precision (decimals)
          <input type="number" min={0} max={10} value={options.precision ?? ''} onChange={(event) => set({ precision: number(event.target.value) })} />
        </label>
      ) : null}
      {type === 'currency' ? (
        <label>
          Currency (ISO 4217)
          <input value={options.currency ?? ''} placeholder="USD" maxLength={3} onChange={(event) => set({ currency: event.target.value.toUpperCase() || undefined })} />
        </label>
      ) : null}
      {type === 'select' || type === 'multi_select' ? (
        <label className="wide">
          Values, one a line
          <textarea
            rows={3}
            value={(options.values ?? []).join('\n')}
            onChange={(event) => set({ values: event.target.value.split('\n').map((value) => value.trim()).filter((value, i, all) => value !== '' || i === all.length - 1) })}
          />
        </label>
      ) : null}
      {type === 'phone' ? (
        <label>
          Default country (ISO 3166)
          <input value={options.default_country ?? ''} placeholder="DE" maxLength={2} onChange={(event) => set({ default_country: event.target.value.toUpperCase() || undefined })} />
        </label>
      ) : null}
      {UNIQUE_TYPES.includes(type) ? (
        <label className="inline">
          <input type="checkbox" checked={options.is_unique ?? false} onChange={(event) => set({ is_unique: event.target.checked })} />
          Unique values
        </label>
      ) : null}
      {SEARCHABLE_TYPES.includes(type) ? (
        <label className="inline">
          <input type="checkbox" checked={options.searchable ?? false} onChange={(event) => set({ searchable: event.target.checked })} />
          Fast text search (index for contains and starts with)
        </label>
      ) : null}
    </div>
  );
}
