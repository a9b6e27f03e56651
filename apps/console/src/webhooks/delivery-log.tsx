import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { useSession } from '../session-context';
import { DataTable } from '../ui/data-table';
import { ErrorNote, Outcome } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { useEventKinds } from './event-kinds';

type Delivery = Schema<'WebhookDeliveryView'>;

/** New attempts appear within this time without a reload. */
const REFRESH_MS = 1000;

/** Every attempt, newest first, read again every second: status, duration, answer, next retry; redeliver any. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { api, access } = useSession();
  const kinds = useEventKinds();
  const [success, setSuccess] = useState<'' | 'true' | 'false'>('');
  const [eventType, setEventType] = useState<'' | Schema<'EventKind'>>('');
  const [page, setPage] = useState(1);
  const deliveries = useLoad(
    () =>
      api.GET('/webhooks/{webhook_id}/deliveries', {
        params: { path: { webhook_id: webhookId }, query: { page, limit: 20, ...(success ? { success: success === 'true' } : {}), ...(eventType ? { event_type: eventType } : {}) } },
      }),
    `${webhookId}:${success}:${eventType}:${page}`,
    REFRESH_MS,
  );
  const redeliver = useAction(
    (deliveryId: string) => api.POST('/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', { params: { path: { webhook_id: webhookId, delivery_id: deliveryId } } }),
    (answer) => `Event ${answer.data.event_id.slice(0, 8)} queued again`,
  );
  const list = deliveries.data?.data ?? [];
  const total = deliveries.data?.pagination.total ?? 0;
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div className="row-of-inputs">
        <label>
          Result
          <select value={success} onChange={(event) => setSuccess(event.target.value as '' | 'true' | 'false')}>
            <option value="">all</option>
            <option value="true">succeeded</option>
            <option value="false">failed</option>
          </select>
        </label>
        <label>
          Event type
          <select value={eventType} onChange={(event) => setEventType(event.target.value as Schema<'EventKind'>)}>
            <option value="">all</option>
            {kinds.map(({ event_type: kind }) => (
              <option key={kind}>{kind}</option>
            ))}
          </select>
        </label>
        <span className="muted" role="status" aria-live="off">
          {total.toLocaleString()} attempts · live
        </span>
        <Outcome action={redeliver} />
      </div>
      <ErrorNote error={deliveries.error} />
      <DataTable
        label="Delivery attempts"
        caption="Delivery attempts, newest first"
        className="deliveries"
        rows={list}
        rowKey={(delivery) => delivery.id}
        rowClassName={(delivery) => (delivery.success ? 'ok' : 'failed')}
        columns={[
          { header: 'When', cell: (delivery) => new Date(delivery.created_at).toLocaleString() },
          { header: 'Event', cell: (delivery) => delivery.event_type },
          { header: 'Attempt', cell: (delivery) => delivery.attempt },
          {
            header: 'Status',
            cell: (delivery) => <span className={`badge ${delivery.success ? 'active' : 'failed'}`}>{delivery.status_code === 0 ? 'no answer' : delivery.status_code}</span>,
          },
          { header: 'Duration', cell: (delivery) => `${delivery.duration_ms} ms` },
          {
            header: 'Response',
            className: 'break',
            cell: (delivery) => (
              <>
                {delivery.error_message ? <span>{delivery.error_message} </span> : null}
                {delivery.response_body ? (
                  <details>
                    <summary>body</summary>
                    <pre className="mono">{delivery.response_body}</pre>
                  </details>
                ) : null}
              </>
            ),
          },
          { header: 'Next retry', cell: (delivery) => (delivery.next_retry_at ? new Date(delivery.next_retry_at).toLocaleString() : '') },
          ...(access.webhooks.write
            ? [
                {
                  header: 'Actions',
                  // A test send's event is not kept in the event store, so there is nothing to send again.
                  cell: (delivery: Delivery) =>
                    delivery.event_type === 'webhook.test' ? null : (
                      <button type="button" className="small" disabled={redeliver.busy} onClick={() => void redeliver.run(delivery.id)}>
                        Redeliver
                      </button>
                    ),
                },
              ]
            : []),
        ]}
      />
      {list.length === 0 && deliveries.data ? <p>No attempts yet.</p> : null}
      <nav className="pager" aria-label="Delivery pages">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" disabled={page * 20 >= total} onClick={() => setPage(page + 1)}>
          Older
        </button>
      </nav>
    </section>
  );
}
