import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import { ErrorNote, Outcome, Progress } from '../ui/feedback';
import { useAction, useLoadUntil } from '../ui/hooks';
import { FilterBuilder } from './filter-builder';

type Export = Schema<'ExportView'>;
const FINISHED: Export['status'][] = ['completed', 'failed', 'expired'];

/** The table's rows (all, or those a filter picks, in an order, with chosen fields) to a CSV or NDJSON file, followed live to its download link. */
export function ExportsPanel({ table }: { table: Schema<'TableDetail'> }) {
  const { api } = useSession();
  const [format, setFormat] = useState<'csv' | 'ndjson'>('csv');
  const [filter, setFilter] = useState<string | undefined>();
  const [sort, setSort] = useState('');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [fields, setFields] = useState<string[]>(() => table.fields.map((field) => field.slug));
  const [exportId, setExportId] = useState<string | undefined>();
  const start = useAction(
    async () => {
      const { data } = await api.POST('/tables/{table_id}/exports', {
        params: { path: { table_id: table.id } },
        body: {
          format,
          ...(filter ? { filter: JSON.parse(filter) as Record<string, unknown> } : {}),
          ...(sort ? { sort, order } : {}),
          ...(fields.length < table.fields.length ? { fields } : {}),
        },
      });
      setExportId(data.id);
      return data;
    },
    (started) => `Export ${started.status}`,
  );
  const submit = submitting(start.run);
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">Export rows</h2>
      <p>Rows to export (empty: every row):</p>
      <FilterBuilder fields={table.fields} error={start.error?.field?.startsWith('filter') ? start.error : undefined} onApply={setFilter} />
      <p className="muted" role="status">
        {filter ? (
          <>
            Filter: <code>{filter}</code>
          </>
        ) : (
          'No filter: every row.'
        )}
      </p>
      <form className="card" onSubmit={submit} aria-label="Export">
        <div className="row-of-inputs">
          <label>
            Format
            <select value={format} onChange={(event) => setFormat(event.target.value as 'csv' | 'ndjson')}>
              <option value="csv">CSV (imports back as the same rows)</option>
              <option value="ndjson">NDJSON</option>
            </select>
          </label>
          <label>
            Order by
            <select value={sort} onChange={(event) => setSort(event.target.value)}>
              <option value="">as stored</option>
              {table.fields.map((field) => (
                <option key={field.slug} value={field.slug}>
                  {field.name}
                </option>
              ))}
              <option value="created_at">created_at</option>
              <option value="updated_at">updated_at</option>
            </select>
          </label>
          {sort ? (
            <label>
              Direction
              <select value={order} onChange={(event) => setOrder(event.target.value as 'asc' | 'desc')}>
                <option value="asc">ascending</option>
                <option value="desc">descending</option>
              </select>
            </label>
          ) : null}
        </div>
        <fieldset>
          <legend>Fields</legend>
          <div className="checks">
            {table.fields.map((field) => (
              <label key={field.slug} className="inline">
                <input
                  type="checkbox"
                  checked={fields.includes(field.slug)}
                  onChange={(event) =>
                    setFields(event.target.checked ? table.fields.map((other) => other.slug).filter((slug) => slug === field.slug || fields.includes(slug)) : fields.filter((slug) => slug !== field.slug))
                  }
                />
                {field.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={start.busy || fields.length === 0}>
            Export
          </button>
          {start.error?.field?.startsWith('filter') ? null : <Outcome action={start} />}
        </div>
      </form>
      {exportId ? <ExportProgress key={exportId} tableId={table.id} exportId={exportId} /> : null}
    </section>
  );
}

/** One export, read every half second until it ends, then its download link and when the file goes away. */
function ExportProgress({ tableId, exportId }: { tableId: string; exportId: string }) {
  const { api } = useSession();
  const item = useLoadUntil(
    async () => (await api.GET('/tables/{table_id}/exports/{export_id}', { params: { path: { table_id: tableId, export_id: exportId } } })).data,
    exportId,
    500,
    (data) => FINISHED.includes(data.status),
  );
  const data = item.data;
  return (
    <div className="card" aria-live="polite">
      <h3>Export {data ? data.status : '…'}</h3>
      <ErrorNote error={item.error} />
      {data ? (
        <>
          {FINISHED.includes(data.status) ? null : <Progress label="Rows exported" value={data.rows_done} />}
          <p role="status">{data.rows_done.toLocaleString()} rows written</p>
          {data.download_url ? (
            <p>
              <a href={data.download_url} download>
                Download the {data.format.toUpperCase()} file
              </a>
              {data.expires_at ? <span className="muted"> · kept until {new Date(data.expires_at).toLocaleString()}</span> : null}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
