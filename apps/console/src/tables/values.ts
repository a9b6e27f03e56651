import type { AttachmentWrite, RowValues } from '@org-data-platform/sdk';
import type { FieldView } from './field-drafts';

export type RowValue = RowValues[string];
/** What an editor holds for one value: text for most types, a flag, a set of choices, or attachment entries. */
export type Draft = string | boolean | string[] | AttachmentWrite[];

/** A local `YYYY-MM-DDTHH:MM` for a datetime input, from the API's UTC timestamp. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function draftOfValue(field: FieldView, value: RowValue | undefined): Draft {
  switch (field.field_type) {
    case 'checkbox':
      return value === true;
    case 'multi_select':
      return Array.isArray(value) ? (value as string[]) : [];
    case 'attachment':
      // Stored files are kept by id; links as they were given.
      return Array.isArray(value) ? (value as { id?: string; url: string; filename: string }[]).map((entry) => (entry.id ? { id: entry.id } : entry) as AttachmentWrite) : [];
    case 'datetime':
      return typeof value === 'string' ? localDateTime(value) : '';
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/**
 * The value to send for a draft: an empty input clears the value (null); a number that does not parse is
 * sent as typed, so that the API's own message says what is wrong with it.
 */
export function valueOfDraft(field: FieldView, draft: Draft): RowValue | AttachmentWrite[] {
  switch (field.field_type) {
    case 'checkbox':
      return draft === true;
    case 'multi_select':
    case 'attachment':
      return (draft as string[]).length === 0 ? null : (draft as RowValue);
    case 'number':
    case 'currency': {
      const text = String(draft).trim();
      if (text === '') return null;
      return Number.isFinite(Number(text)) ? Number(text) : text;
    }
    case 'datetime': {
      const text = String(draft);
      if (text === '') return null;
      const date = new Date(text);
      return Number.isNaN(date.getTime()) ? text : date.toISOString();
    }
    default:
      return String(draft) === '' ? null : String(draft);
  }
}

/** A value as text for the grid and for screen readers. */
export function displayValue(field: FieldView, value: RowValue | undefined): string {
  if (value === null || value === undefined) return '';
  switch (field.field_type) {
    case 'checkbox':
      return value ? 'Yes' : 'No';
    case 'multi_select':
      return (value as string[]).join(', ');
    case 'currency':
      return typeof value === 'number'
        ? new Intl.NumberFormat(undefined, { style: 'currency', currency: field.options.currency ?? 'USD', minimumFractionDigits: field.options.precision ?? 2 }).format(value)
        : String(value);
    case 'datetime':
      return new Date(String(value)).toLocaleString();
    case 'attachment':
      return (value as { filename: string }[]).map((entry) => entry.filename).join(', ');
    default:
      return String(value);
  }
}
