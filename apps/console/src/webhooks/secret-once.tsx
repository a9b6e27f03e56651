import { CopyButton } from '../ui/feedback';

/** A signing secret, shown this once: the API never answers it again. */
export function SecretOnce({ secret, note }: { secret: string; note?: string }) {
  return (
    <div className="card secret" role="status">
      <p>
        <strong>Signing secret</strong> — shown once; copy it now.{note ? ` ${note}` : ''}
      </p>
      <code className="mono">{secret}</code> <CopyButton value={secret} label="signing secret" />
    </div>
  );
}
