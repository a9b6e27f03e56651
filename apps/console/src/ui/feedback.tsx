import { type ReactNode, useState } from 'react';
import { describe, type ShownError } from '../errors';
import type { ActionState } from './hooks';

/** The API's message, beside the control that caused it; a 403 says it is one. */
export function ErrorNote({ error, id }: { error?: ShownError; id?: string }) {
  if (!error) return null;
  const forbidden = error.status === 403;
  return (
    <p className="error" role="alert" id={id}>
      {forbidden ? <strong>Not allowed. </strong> : null}
      {describe(error)}
    </p>
  );
}

/** Busy, failed with the API's message, or what the action did. */
export function Outcome({ action }: { action: ActionState }) {
  if (action.busy) return <span className="busy" role="status">Working…</span>;
  if (action.error) return <ErrorNote error={action.error} />;
  if (action.done) return <span className="done" role="status">{action.done}</span>;
  return null;
}

/** Determinate when the total is known, indeterminate otherwise. */
export function Progress({ label, value, max }: { label: string; value?: number; max?: number }) {
  const percent = value !== undefined && max ? Math.round((value / max) * 100) : undefined;
  return (
    <div className="progress">
      <progress aria-label={label} value={value} max={max} />
      <span>{percent !== undefined ? `${percent}%` : value !== undefined ? value.toLocaleString() : ''}</span>
    </div>
  );
}

/** Copies a value; falls back to a selection copy where the clipboard API is not offered (plain HTTP). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<boolean | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      setCopied(document.execCommand('copy'));
      area.remove();
    }
  };
  return (
    <button type="button" className="small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      {copied === undefined ? 'Copy' : copied ? 'Copied' : 'Copy failed'}
    </button>
  );
}

/** A destructive button that asks once more in place instead of a blocking dialog. */
export function ConfirmButton({ label, confirm, onConfirm, disabled }: { label: string; confirm: string; onConfirm(): void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** Page numbers for the lists that count their rows. */
export function Pager({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage(page: number): void }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages === 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A wide table's own horizontal scroll, reachable and scrollable from the keyboard (a named region). */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
