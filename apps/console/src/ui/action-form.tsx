import type { FormEvent, ReactNode } from 'react';
import { Outcome } from './feedback';
import type { ActionState } from './hooks';

/** A form's submit handler: runs the action instead of the browser's navigation. */
export function submitting(run: () => unknown) {
  return (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
}

/** A card that runs one action: its heading, its inputs with the button and the outcome beside them, and what it answered below. */
export function ActionCard(props: { titleId: string; title: string; action: ActionState & { run(): unknown }; submitLabel: string; inputs: ReactNode; children?: ReactNode }) {
  const { titleId, action } = props;
  return (
    <form className="card" onSubmit={submitting(action.run)} aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      <div className="row-of-inputs">
        {props.inputs}
        <button type="submit" disabled={action.busy}>
          {props.submitLabel}
        </button>
        <Outcome action={action} />
      </div>
      {props.children}
    </form>
  );
}
