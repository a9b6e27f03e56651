import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { useSession } from '../session-context';
import { ErrorNote, Outcome, ScrollBox } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { useEventKinds } from './event-kinds';

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
      <ScrollBox label="Delivery attempts">
        <table className="deliveries">
          <caption className="visually-hidden">Delivery attempts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Response</th>
              <th scope="col">Next retry</th>
              {access.webhooks.write ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((delivery) => (
              <tr key={delivery.id} className={delivery.success ? 'ok' : 'failed'}>
                <td>{new Date(delivery.created_at).toLocaleString()}</td>
                <td>{delivery.event_type}</td>
                <td>{delivery.attempt}</td>
                <td>
                  <span className={`badge ${delivery.success ? 'active' : 'failed'}`}>{delivery.status_code === 0 ? 'no answer' : delivery.status_code}</span>
                </td>
                <td>{delivery.duration_ms} ms</td>
                <td className="break">
                  {delivery.error_message ? <span>{delivery.error_message} </span> : null}
                  {delivery.response_body ? (
                    <details>
                      <summary>body</summary>
                      <pre className="mono">{delivery.response_body}</pre>
                    </details>
                  ) : null}
                </td>
                <td>{delivery.next_retry_at ? new Date(delivery.next_retry_at).toLocaleString() : ''}</td>
                {access.webhooks.write ? (
                  <td>
                    {/* A test send's event is not kept in the event store, so there is nothing to send again. */}
                    {delivery.event_type === 'webhook.test' ? null : (
                      <button type="button" className="small" disabled={redeliver.busy} onClick={() => void redeliver.run(delivery.id)}>
                        Redeliver
                      </button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
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
