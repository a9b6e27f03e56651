import type { Schema } from '@org-data-platform/sdk';
import { type FormEvent, useState } from 'react';
import type { ShownError } from '../errors';
import { useSession } from '../session-context';
import { ErrorNote } from '../ui/feedback';
import { useLoad } from '../ui/hooks';
import { type EventKind, useEventKinds } from './event-kinds';

export type WebhookInput = Schema<'UpdateWebhookBody'>;

/** The webhook's settings: name, URL, events, tables, and for one table a filter and watched fields. */
export function WebhookForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
}: {
  initial?: Schema<'WebhookView'>;
  submitLabel: string;
  busy: boolean;
  error?: ShownError;
  onSubmit(input: WebhookInput): void;
}) {
  const { api, access } = useSession();
  const kinds = useEventKinds();
  const [name, setName] = useState(initial?.name ?? '');
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<EventKind[]>(initial?.events ?? ['row.created']);
  const [tableIds, setTableIds] = useState<string[]>(initial?.table_ids ?? []);
  const [filter, setFilter] = useState(initial?.filter ? JSON.stringify(initial.filter) : '');
  const [watch, setWatch] = useState<string[]>(initial?.watch_fields ?? []);
  const [rateLimit, setRateLimit] = useState(initial?.rate_limit ? String(initial.rate_limit) : '');
  const [active, setActive] = useState(initial?.active ?? true);
  const [filterProblem, setFilterProblem] = useState<string | undefined>();
  const tables = useLoad(
    () => (access.tables.read ? api.GET('/tables', { params: { query: { limit: 100 } } }).then((answer) => answer.data) : Promise.resolve([])),
    'tables',
  );
  const oneTable = tableIds.length === 1 ? tableIds[0] : undefined;
  const fields = useLoad(
    () => (oneTable ? api.GET('/tables/{table_id}', { params: { path: { table_id: oneTable } } }).then((answer) => answer.data.fields) : Promise.resolve([])),
    oneTable ?? '',
  );
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((other) => other !== item));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown> | null = null;
    if (filter.trim() !== '') {
      try {
        parsed = JSON.parse(filter);
      } catch {
        setFilterProblem('The filter is not valid JSON');
        return;
      }
    }
    setFilterProblem(undefined);
    onSubmit({
      name,
      url,
      events,
      table_ids: tableIds.length > 0 ? tableIds : null,
      filter: parsed,
      watch_fields: watch.length > 0 && oneTable ? watch : null,
      rate_limit: rateLimit.trim() === '' ? null : Number(rateLimit),
      ...(initial ? { active } : {}),
    });
  };
  const errorFor = (...names: string[]) =>
    error && names.some((name) => error.field === name || error.field?.startsWith(`${name}[`) || error.field?.startsWith(`${name}.`)) ? <ErrorNote error={error} /> : null;
  const placed = ['name', 'url', 'events', 'table_ids', 'filter', 'watch_fields', 'rate_limit'].some((name) => error?.field?.startsWith(name));
  return (
    <form className="card" onSubmit={submit}>
      <div className="row-of-inputs">
        <label>
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
        </label>
        <label className="wide">
          URL
          <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} required placeholder="https://example.com/hooks" />
        </label>
      </div>
      {errorFor('name', 'url')}
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {kinds.map(({ event_type: kind, description }) => (
            <label key={kind} className="inline" title={description}>
              <input type="checkbox" checked={events.includes(kind)} onChange={(event) => setEvents(toggle(events, kind, event.target.checked))} />
              {kind}
            </label>
          ))}
        </div>
        {errorFor('events')}
      </fieldset>
      {access.tables.read ? (
        <fieldset>
          <legend>Tables (none: every table)</legend>
          <div className="checks">
            {(tables.data ?? []).map((table) => (
              <label key={table.id} className="inline">
                <input type="checkbox" checked={tableIds.includes(table.id)} onChange={(event) => setTableIds(toggle(tableIds, table.id, event.target.checked))} />
                {table.name}
              </label>
            ))}
          </div>
          {errorFor('table_ids')}
        </fieldset>
      ) : null}
      <label className="wide">
        Row filter (JSON in the rows list grammar, for one table; empty: every row)
        <textarea className="mono" rows={2} value={filter} onChange={(event) => setFilter(event.target.value)} spellCheck={false} placeholder='{"amount":{"gte":100}}' />
      </label>
      {filterProblem ? (
        <p className="error" role="alert">
          {filterProblem}
        </p>
      ) : null}
      {errorFor('filter')}
      {oneTable && fields.data && fields.data.length > 0 ? (
        <fieldset>
          <legend>Watch fields (row.updated only when one of them changed)</legend>
          <div className="checks">
            {fields.data.map((field) => (
              <label key={field.slug} className="inline">
                <input type="checkbox" checked={watch.includes(field.slug)} onChange={(event) => setWatch(toggle(watch, field.slug, event.target.checked))} />
                {field.name}
              </label>
            ))}
          </div>
          {errorFor('watch_fields')}
        </fieldset>
      ) : null}
      <div className="row-of-inputs">
        <label>
          Rate limit (deliveries a second, empty: none)
          <input type="number" min={1} max={1000} value={rateLimit} onChange={(event) => setRateLimit(event.target.value)} />
        </label>
        {initial ? (
          <label className="inline">
            <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
            Active
          </label>
        ) : null}
      </div>
      {errorFor('rate_limit')}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
        {busy ? <span role="status">Working…</span> : null}
        {error && !placed ? <ErrorNote error={error} /> : null}
      </div>
    </form>
  );
}
