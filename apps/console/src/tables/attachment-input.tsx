import type { AttachmentWrite } from '@org-data-platform/sdk';
import { useState } from 'react';
import { useSession } from '../session-context';
import { ErrorNote, Progress } from '../ui/feedback';
import { useAction } from '../ui/hooks';
import { uploadFile } from './upload';

/** An attachment value being edited: files kept, files uploaded now (with progress), and removal. */
export function AttachmentInput({
  tableId,
  label,
  value,
  names,
  onChange,
}: {
  tableId: string;
  label: string;
  value: AttachmentWrite[];
  /** File names of the stored entries, by id, to show what each kept entry is. */
  names: Record<string, string>;
  onChange(value: AttachmentWrite[]): void;
}) {
  const { api } = useSession();
  const [progress, setProgress] = useState<{ sent: number; total: number } | undefined>();
  const [uploaded, setUploaded] = useState<Record<string, string>>({});
  const upload = useAction(async (file: File) => {
    const ticket = await uploadFile(api, tableId, file, (sent, total) => setProgress({ sent, total }));
    setUploaded((known) => ({ ...known, [ticket.upload_id]: file.name }));
    onChange([...value, { upload_id: ticket.upload_id }]);
  });
  const nameOf = (entry: AttachmentWrite) =>
    'upload_id' in entry ? `${uploaded[entry.upload_id] ?? 'file'} (uploaded, not saved yet)` : 'filename' in entry && entry.filename ? entry.filename : names[(entry as { id: string }).id] ?? 'file';
  return (
    <div className="attachments">
      <ul>
        {value.map((entry, index) => (
          <li key={index}>
            {nameOf(entry)}{' '}
            <button type="button" className="small" onClick={() => onChange(value.filter((_, i) => i !== index))} aria-label={`Remove ${nameOf(entry)}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <label className="file">
        Upload a file to {label}
        <input
          type="file"
          disabled={upload.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload.run(file);
          }}
        />
      </label>
      {upload.busy && progress ? <Progress label={`Uploading to ${label}`} value={progress.sent} max={progress.total} /> : null}
      {!upload.busy && progress && !upload.error ? <span role="status">Uploaded</span> : null}
      <ErrorNote error={upload.error} />
    </div>
  );
}
