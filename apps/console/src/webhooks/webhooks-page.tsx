import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { href } from '../route';
import { useSession } from '../session-context';
import { ErrorNote, Pager, ScrollBox } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { SecretOnce } from './secret-once';
import { WebhookForm, type WebhookInput } from './webhook-form';
import { WebhookView } from './webhook-view';

const PAGE_SIZE = 50;

export function WebhooksPage({ route }: { route: string[] }) {
  const [webhookId] = route;
  if (webhookId) return <WebhookView key={webhookId} webhookId={webhookId} />;
  return <WebhooksList />;
}

export function StatusBadge({ status }: { status: Schema<'WebhookStatus'> }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

function WebhooksList() {
  const { api, access } = useSession();
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<Schema<'WebhookCreatedView'> | undefined>();
  const webhooks = useLoad(() => api.GET('/webhooks', { params: { query: { page, limit: PAGE_SIZE } } }), `${page}:${created?.id}`);
  const create = useAction(async (input: WebhookInput) => {
    const body = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)) as Schema<'CreateWebhookBody'>;
    const { data } = await api.POST('/webhooks', { body });
    setCreated(data);
  });
  return (
    <section>
      <h1>Webhooks</h1>
      <ErrorNote error={webhooks.error} />
      {created ? (
        <>
          <p role="status">
            Created <a href={href('webhooks', created.id)}>{created.name}</a>.
          </p>
          <SecretOnce secret={created.secret} />
        </>
      ) : null}
      {webhooks.data && webhooks.data.data.length === 0 ? <p>No webhooks yet.</p> : null}
      {webhooks.data && webhooks.data.data.length > 0 ? (
        <ScrollBox label="Webhooks">
          <table>
            <caption className="visually-hidden">Webhooks</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Events</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td>
                    <a href={href('webhooks', webhook.id)}>{webhook.name}</a>
                  </td>
                  <td className="break">{webhook.url}</td>
                  <td>
                    <StatusBadge status={webhook.status} />
                  </td>
                  <td>{webhook.events.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
      {webhooks.data ? <Pager page={page} limit={PAGE_SIZE} total={webhooks.data.pagination.total} onPage={setPage} /> : null}
      {access.webhooks.write ? (
        <>
          <h2>New webhook</h2>
          <WebhookForm submitLabel="Create webhook" busy={create.busy} error={create.error} onSubmit={(input) => void create.run(input)} />
        </>
      ) : null}
    </section>
  );
}
