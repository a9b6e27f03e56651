import type { AttachmentWrite, RowValues } from '@org-data-platform/sdk';
import { AttachmentInput } from './attachment-input';
import type { FieldView } from './field-drafts';
import type { Draft } from './values';

const INPUT_TYPE: Partial<Record<FieldView['field_type'], string>> = {
  number: 'text',
  currency: 'text',
  date: 'date',
  datetime: 'datetime-local',
  email: 'email',
  url: 'url',
  phone: 'tel',
};

/** The input for one value of a field, by its type. `label` names it for screen readers. */
export function ValueInput({
  field,
  tableId,
  label,
  draft,
  stored,
  onChange,
  autoFocus,
}: {
  field: FieldView;
  tableId: string;
  label: string;
  draft: Draft;
  stored?: RowValues[string];
  onChange(draft: Draft): void;
  autoFocus?: boolean;
}) {
  switch (field.field_type) {
    case 'checkbox':
      return <input type="checkbox" aria-label={label} checked={draft === true} onChange={(event) => onChange(event.target.checked)} autoFocus={autoFocus} />;
    case 'select':
      return (
        <select aria-label={label} value={String(draft)} onChange={(event) => onChange(event.target.value)} autoFocus={autoFocus}>
          <option value="">(none)</option>
          {(field.options.values ?? []).map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      );
    case 'multi_select': {
      const chosen = draft as string[];
      return (
        <fieldset className="choices">
          <legend className="visually-hidden">{label}</legend>
          {(field.options.values ?? []).map((value) => (
            <label key={value} className="inline">
              <input
                type="checkbox"
                checked={chosen.includes(value)}
                onChange={(event) => onChange(event.target.checked ? [...chosen, value] : chosen.filter((other) => other !== value))}
              />
              {value}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'long_text':
      return <textarea aria-label={label} rows={3} value={String(draft)} onChange={(event) => onChange(event.target.value)} autoFocus={autoFocus} />;
    case 'attachment': {
      const names = Object.fromEntries(
        (Array.isArray(stored) ? (stored as { id?: string; filename: string }[]) : []).filter((entry) => entry.id).map((entry) => [entry.id as string, entry.filename]),
      );
      return <AttachmentInput tableId={tableId} label={label} value={draft as AttachmentWrite[]} names={names} onChange={onChange} />;
    }
    default:
      return (
        <input
          type={INPUT_TYPE[field.field_type] ?? 'text'}
          inputMode={field.field_type === 'number' || field.field_type === 'currency' ? 'decimal' : undefined}
          aria-label={label}
          value={String(draft)}
          onChange={(event) => onChange(event.target.value)}
          autoFocus={autoFocus}
        />
      );
  }
}
