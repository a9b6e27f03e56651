import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { href } from '../route';
import { useSession } from '../session-context';
import type { Column } from '../ui/data-table';
import { useAction } from '../ui/hooks';
import { PagedTable, usePagedList } from '../ui/paged-list';
import { SecretOnce } from './secret-once';
import { WebhookForm, type WebhookInput } from './webhook-form';
import { WebhookView } from './webhook-view';

export function WebhooksPage({ route }: { route: string[] }) {
  const [webhookId] = route;
  if (webhookId) return <WebhookView key={webhookId} webhookId={webhookId} />;
  return <WebhooksList />;
}

export function StatusBadge({ status }: { status: Schema<'WebhookStatus'> }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

const COLUMNS: Column<Schema<'WebhookView'>>[] = [
  { header: 'Name', cell: (webhook) => <a href={href('webhooks', webhook.id)}>{webhook.name}</a> },
  { header: 'URL', cell: (webhook) => webhook.url, className: 'break' },
  { header: 'Status', cell: (webhook) => <StatusBadge status={webhook.status} /> },
  { header: 'Events', cell: (webhook) => webhook.events.join(', ') },
];

function WebhooksList() {
  const { api, access } = useSession();
  const [created, setCreated] = useState<Schema<'WebhookCreatedView'> | undefined>();
  const webhooks = usePagedList((query) => api.GET('/webhooks', { params: { query } }), created?.id);
  const create = useAction(async (input: WebhookInput) => {
    const body = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)) as Schema<'CreateWebhookBody'>;
    const { data } = await api.POST('/webhooks', { body });
    setCreated(data);
  });
  return (
    <section>
      <h1>Webhooks</h1>
      {created ? (
        <>
          <p role="status">
            Created <a href={href('webhooks', created.id)}>{created.name}</a>.
          </p>
          <SecretOnce secret={created.secret} />
        </>
      ) : null}
      <PagedTable list={webhooks} label="Webhooks" empty="No webhooks yet." columns={COLUMNS} />
      {access.webhooks.write ? (
        <>
          <h2>New webhook</h2>
          <WebhookForm submitLabel="Create webhook" busy={create.busy} error={create.error} onSubmit={(input) => void create.run(input)} />
        </>
      ) : null}
    </section>
  );
}
