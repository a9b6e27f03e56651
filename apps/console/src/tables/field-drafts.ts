import type { Schema } from '@org-data-platform/sdk';

export type FieldType = Schema<'FieldType'>;
export type FieldOptions = Schema<'FieldOptions'>;
export type FieldView = Schema<'FieldView'>;

export const FIELD_TYPES: { type: FieldType; label: string }[] = [
  { type: 'text', label: 'Text' },
  { type: 'long_text', label: 'Long text' },
  { type: 'number', label: 'Number' },
  { type: 'currency', label: 'Currency' },
  { type: 'date', label: 'Date' },
  { type: 'datetime', label: 'Date and time' },
  { type: 'checkbox', label: 'Checkbox' },
  { type: 'select', label: 'Select' },
  { type: 'multi_select', label: 'Multi-select' },
  { type: 'email', label: 'Email' },
  { type: 'url', label: 'URL' },
  { type: 'phone', label: 'Phone' },
  { type: 'attachment', label: 'Attachment' },
];

/** The types whose values may be declared unique (`is_unique`). */
export const UNIQUE_TYPES: FieldType[] = ['text', 'number', 'email', 'url', 'phone'];
/** The types whose `contains` and `starts_with` filters a trigram index may serve (`searchable`). */
export const SEARCHABLE_TYPES: FieldType[] = ['text', 'long_text', 'email', 'url', 'phone', 'select'];

/** A field as the editor holds it: a stored one (with its id) or a new one, possibly marked for removal. */
export interface FieldDraft {
  key: string;
  id?: string;
  name: string;
  field_type: FieldType;
  is_required: boolean;
  options: FieldOptions;
  removed?: boolean;
}

let drafted = 0;
export const newDraft = (): FieldDraft => ({ key: `new-${(drafted += 1)}`, name: '', field_type: 'text', is_required: false, options: {} });
export const draftOf = (field: FieldView): FieldDraft => ({ key: field.id, id: field.id, name: field.name, field_type: field.field_type, is_required: field.is_required, options: field.options });

/** Only the options the type takes, and only those given: the API refuses any other. */
export function optionsFor(type: FieldType, options: FieldOptions): FieldOptions | undefined {
  const kept: FieldOptions = {};
  if ((type === 'number' || type === 'currency') && options.precision !== undefined) kept.precision = options.precision;
  if (type === 'currency' && options.currency) kept.currency = options.currency;
  if ((type === 'select' || type === 'multi_select') && options.values) kept.values = options.values.filter((value) => value !== '');
  if (type === 'phone' && options.default_country) kept.default_country = options.default_country;
  if (UNIQUE_TYPES.includes(type) && options.is_unique) kept.is_unique = true;
  if (SEARCHABLE_TYPES.includes(type) && options.searchable) kept.searchable = true;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** The new table's `fields`. */
export function fieldsToCreate(drafts: FieldDraft[]): Schema<'FieldDefinitionInput'>[] {
  return drafts.filter((draft) => !draft.removed).map((draft) => {
    const options = optionsFor(draft.field_type, draft.options);
    return { name: draft.name, field_type: draft.field_type, is_required: draft.is_required, ...(options ? { options } : {}) };
  });
}

/**
 * A table change: `fields` (changed stored fields, then new ones) and `remove_fields`, with the draft
 * each `fields[i]` came from, so that an error naming `fields[i]` is shown beside that field.
 */
export function fieldChanges(stored: FieldView[], drafts: FieldDraft[]): { fields: Schema<'FieldChangeInput'>[]; remove_fields: string[]; keys: string[] } {
  const fields: Schema<'FieldChangeInput'>[] = [];
  const keys: string[] = [];
  for (const draft of drafts) {
    if (draft.removed) continue;
    const before = stored.find((field) => field.id === draft.id);
    const options = optionsFor(draft.field_type, draft.options);
    if (!before) {
      fields.push({ name: draft.name, field_type: draft.field_type, is_required: draft.is_required, ...(options ? { options } : {}) });
      keys.push(draft.key);
      continue;
    }
    const change: Schema<'FieldChangeInput'> = { id: before.id };
    if (draft.name !== before.name) change.name = draft.name;
    if (draft.is_required !== before.is_required) change.is_required = draft.is_required;
    if (JSON.stringify(options ?? {}) !== JSON.stringify(optionsFor(before.field_type, before.options) ?? {})) change.options = options ?? {};
    if (Object.keys(change).length > 1) {
      fields.push(change);
      keys.push(draft.key);
    }
  }
  const remove_fields = drafts.filter((draft) => draft.removed && draft.id).map((draft) => draft.id as string);
  return { fields, remove_fields, keys };
}

/** The draft an error path such as `fields[2].options.values` names, given the keys of what was sent. */
export function draftNamed(field: string | undefined, keys: string[]): string | undefined {
  const index = /^fields\[(\d+)\]/.exec(field ?? '')?.[1];
  return index === undefined ? undefined : keys[Number(index)];
}
