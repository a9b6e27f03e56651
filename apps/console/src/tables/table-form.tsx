import { type FormEvent, useState } from 'react';
import { Outcome } from '../ui/feedback';
import type { ActionState } from '../ui/hooks';
import { draftNamed, type FieldDraft } from './field-drafts';
import { FieldsEditor } from './fields-editor';

/** What the form edits, kept by the page that shows it: the table's name, description and field drafts. */
export interface TableDraft {
  name: string;
  setName(name: string): void;
  description: string;
  setDescription(description: string): void;
  drafts: FieldDraft[];
  setDrafts(drafts: FieldDraft[]): void;
}

export function useTableDraft(initial: { name: string; description: string; drafts: () => FieldDraft[] }): TableDraft {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [drafts, setDrafts] = useState<FieldDraft[]>(initial.drafts);
  return { name, setName, description, setDescription, drafts, setDrafts };
}

export interface TableFormProps {
  heading: { id: string; text: string };
  submitLabel: string;
  draft: TableDraft;
  /** The draft keys of the fields the last request sent, in its order: a `fields[i]` error names one of them. */
  sentKeys: string[];
  action: ActionState;
  onSubmit(event: FormEvent): void;
}

/** A table's name, description and fields, as the new-table form and the table's settings both edit them. */
export function TableForm(props: TableFormProps) {
  const { heading, action, draft } = props;
  const fieldError = action.error?.field?.startsWith('fields[') ? { key: draftNamed(action.error.field, props.sentKeys) ?? '', error: action.error } : undefined;
  return (
    <form className="card" onSubmit={props.onSubmit} aria-labelledby={heading.id}>
      <h2 id={heading.id}>{heading.text}</h2>
      <div className="row-of-inputs">
        <label>
          Name
          <input value={draft.name} onChange={(event) => draft.setName(event.target.value)} required />
        </label>
        <label className="wide">
          Description
          <input value={draft.description} onChange={(event) => draft.setDescription(event.target.value)} />
        </label>
      </div>
      <FieldsEditor drafts={draft.drafts} onChange={draft.setDrafts} errorAt={fieldError} />
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {props.submitLabel}
        </button>
        {fieldError ? null : <Outcome action={action} />}
      </div>
    </form>
  );
}
