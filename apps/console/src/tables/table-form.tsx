import type { FormEvent } from 'react';
import { Outcome } from '../ui/feedback';
import type { ActionState } from '../ui/hooks';
import { draftNamed, type FieldDraft } from './field-drafts';
import { FieldsEditor } from './fields-editor';

export interface TableFormProps {
  heading: { id: string; text: string };
  submitLabel: string;
  name: string;
  onName(name: string): void;
  description: string;
  onDescription(description: string): void;
  drafts: FieldDraft[];
  onDrafts(drafts: FieldDraft[]): void;
  /** The draft keys of the fields the last request sent, in its order: a `fields[i]` error names one of them. */
  sentKeys: string[];
  action: ActionState;
  onSubmit(event: FormEvent): void;
}

/** A table's name, description and fields, as the new-table form and the table's settings both edit them. */
export function TableForm(props: TableFormProps) {
  const { heading, action } = props;
  const fieldError = action.error?.field?.startsWith('fields[') ? { key: draftNamed(action.error.field, props.sentKeys) ?? '', error: action.error } : undefined;
  return (
    <form className="card" onSubmit={props.onSubmit} aria-labelledby={heading.id}>
      <h2 id={heading.id}>{heading.text}</h2>
      <div className="row-of-inputs">
        <label>
          Name
          <input value={props.name} onChange={(event) => props.onName(event.target.value)} required />
        </label>
        <label className="wide">
          Description
          <input value={props.description} onChange={(event) => props.onDescription(event.target.value)} />
        </label>
      </div>
      <FieldsEditor drafts={props.drafts} onChange={props.onDrafts} errorAt={fieldError} />
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {props.submitLabel}
        </button>
        {fieldError ? null : <Outcome action={action} />}
      </div>
    </form>
  );
}
