import type { Schema } from '@org-data-platform/sdk';
import { type FormEvent, useState } from 'react';
import { useSession } from '../session-context';
import { DataTable } from '../ui/data-table';
import { ErrorNote, Outcome, Progress } from '../ui/feedback';
import { useAction, useLoad, useLoadUntil } from '../ui/hooks';
import { uploadFile } from './upload';

type Import = Schema<'ImportView'>;
const FINISHED: Import['status'][] = ['completed', 'failed'];

/** A CSV or NDJSON file into the table: uploaded with progress, then imported, followed live, with problems by line. */
export function ImportsPanel({ table, onImported }: { table: Schema<'TableDetail'>; onImported(): void }) {
  const { api } = useSession();
  const [file, setFile] = useState<File | undefined>();
  const [mode, setMode] = useState<'insert' | 'upsert'>('insert');
  const [upsertOn, setUpsertOn] = useState('');
  const [onError, setOnError] = useState<'abort' | 'skip'>('abort');
  const [sent, setSent] = useState<{ sent: number; total: number } | undefined>();
  const [watching, setWatching] = useState<string | undefined>();
  const uniques = table.fields.filter((field) => field.options.is_unique);
  const start = useAction(
    async (chosen: File) => {
      const format = /\.(nd)?jsonl?$/i.test(chosen.name) ? 'ndjson' : 'csv';
      const ticket = await uploadFile(api, table.id, chosen, (done, total) => setSent({ sent: done, total }), 'import');
      const { data } = await api.POST('/tables/{table_id}/imports', {
        params: { path: { table_id: table.id } },
        body: { upload_id: ticket.upload_id, format, mode, on_error: onError, ...(mode === 'upsert' ? { upsert_on: upsertOn } : {}) },
      });
      setWatching(data.id);
      return data;
    },
    (started) => `Import ${started.status}`,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) void start.run(file);
  };
  const history = useLoad(() => api.GET('/tables/{table_id}/imports', { params: { path: { table_id: table.id }, query: { limit: 10 } } }), `${table.id}:${watching}`);
  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import rows</h2>
      <form className="card" onSubmit={submit}>
        <p>CSV (the first line names the columns, matched to field names or slugs) or NDJSON (one row's data a line).</p>
        <div className="row-of-inputs">
          <label className="file">
            File
            <input type="file" accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson" onChange={(event) => setFile(event.target.files?.[0])} />
          </label>
          <label>
            Mode
            <select value={mode} onChange={(event) => setMode(event.target.value as 'insert' | 'upsert')}>
              <option value="insert">insert every line</option>
              <option value="upsert" disabled={uniques.length === 0}>
                update by a unique field
              </option>
            </select>
          </label>
          {mode === 'upsert' ? (
            <label>
              Unique field
              <select value={upsertOn} onChange={(event) => setUpsertOn(event.target.value)} required>
                <option value="">choose</option>
                {uniques.map((field) => (
                  <option key={field.slug} value={field.slug}>
                    {field.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            On a bad line
            <select value={onError} onChange={(event) => setOnError(event.target.value as 'abort' | 'skip')}>
              <option value="abort">write nothing</option>
              <option value="skip">skip it, write the rest</option>
            </select>
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={!file || start.busy}>
            Import
          </button>
          {start.busy && sent ? <Progress label="Uploading the file" value={sent.sent} max={sent.total} /> : null}
          <Outcome action={start} />
        </div>
      </form>
      {watching ? <ImportProgress key={watching} tableId={table.id} importId={watching} onFinished={onImported} /> : null}
      <h3>Earlier imports</h3>
      <ErrorNote error={history.error} />
      <ul className="plain">
        {(history.data?.data ?? []).map((item) => (
          <li key={item.id}>
            <button type="button" className="link" onClick={() => setWatching(item.id)}>
              {new Date(item.created_at).toLocaleString()}: {item.status}, {item.rows_created} created, {item.rows_updated} updated, {item.rows_failed} failed
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One import, read every half second until it ends: rows done, the outcome, and every problem by line. */
function ImportProgress({ tableId, importId, onFinished }: { tableId: string; importId: string; onFinished(): void }) {
  const { api } = useSession();
  const item = useLoadUntil(
    async () => (await api.GET('/tables/{table_id}/imports/{import_id}', { params: { path: { table_id: tableId, import_id: importId } } })).data,
    importId,
    500,
    (data) => FINISHED.includes(data.status),
    onFinished,
  );
  const data = item.data;
  return (
    <div className="card" aria-live="polite">
      <h3>Import {data ? data.status : '…'}</h3>
      <ErrorNote error={item.error} />
      {data ? (
        <>
          {FINISHED.includes(data.status) ? null : <Progress label="Rows imported" value={data.rows_done} />}
          <p role="status">
            {data.rows_done.toLocaleString()} lines read · {data.rows_created.toLocaleString()} created · {data.rows_updated.toLocaleString()} updated · {data.rows_failed.toLocaleString()} failed
          </p>
          {data.errors.length > 0 ? (
            <DataTable
              label="Problems by line"
              caption={`Problems by line${data.status === 'failed' && data.on_error === 'abort' ? ' (nothing was written)' : ''}`}
              captionShown
              rows={data.errors}
              rowKey={(_, index) => index}
              columns={[
                { header: 'Line', cell: (problem) => problem.line },
                { header: 'Field', cell: (problem) => <code>{problem.field}</code> },
                { header: 'Code', cell: (problem) => problem.code },
                { header: 'Message', cell: (problem) => problem.message },
              ]}
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
}
