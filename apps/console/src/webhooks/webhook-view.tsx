import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { ActionCard } from '../ui/action-form';
import { ConfirmButton, ErrorNote, Outcome } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { DeliveryLog } from './delivery-log';
import { RecoverForm } from './recover-form';
import { SecretOnce } from './secret-once';
import { useEventKinds } from './event-kinds';
import { WebhookForm, type WebhookInput } from './webhook-form';
import { StatusBadge } from './webhooks-page';

export function WebhookView({ webhookId }: { webhookId: string }) {
  const { api, access } = useSession();
  const [round, setRound] = useState(0);
  const webhook = useLoad(() => api.GET('/webhooks/{webhook_id}', { params: { path: { webhook_id: webhookId } } }).then((answer) => answer.data), `${webhookId}:${round}`);
  const save = useAction(
    async (input: WebhookInput) => {
      await api.PATCH('/webhooks/{webhook_id}', { params: { path: { webhook_id: webhookId } }, body: input });
      setRound((n) => n + 1);
    },
    () => 'Saved',
  );
  const remove = useAction(async () => {
    await api.DELETE('/webhooks/{webhook_id}', { params: { path: { webhook_id: webhookId } } });
    go('webhooks');
  });
  const data = webhook.data;
  return (
    <section>
      <p>
        <a href={href('webhooks')}>← Webhooks</a>
      </p>
      {!data ? (
        webhook.loading ? <p role="status">Loading…</p> : <ErrorNote error={webhook.error} />
      ) : (
        <>
          <h1>
            {data.name} <StatusBadge status={data.status} />
          </h1>
          <p className="muted break">{data.url}</p>
          {data.filter_error ? (
            <p className="error" role="alert">
              {data.filter_error}
            </p>
          ) : null}
          <DeliveryLog webhookId={webhookId} />
          {access.webhooks.write ? (
            <>
              <TestSend webhookId={webhookId} />
              <RecoverForm webhookId={webhookId} />
              <RotateSecret webhookId={webhookId} />
              <h2>Settings</h2>
              <WebhookForm key={data.updated_at} initial={data} submitLabel="Save webhook" busy={save.busy} error={save.error} onSubmit={(input) => void save.run(input)} />
              {save.done ? <p role="status">{save.done}</p> : null}
              <div className="card danger-zone">
                <h2>Delete this webhook</h2>
                <ConfirmButton label="Delete webhook" confirm={`Delete ${data.name} for good`} onConfirm={() => void remove.run()} />
                <Outcome action={remove} />
              </div>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}

/** Sends a signed test event now and shows the receiver's answer. */
function TestSend({ webhookId }: { webhookId: string }) {
  const { api } = useSession();
  const kinds = useEventKinds();
  const [eventType, setEventType] = useState<Schema<'EventKind'>>('row.created');
  const [result, setResult] = useState<Schema<'WebhookTestResultView'> | undefined>();
  const send = useAction(async () => {
    const { data } = await api.POST('/webhooks/{webhook_id}/test', { params: { path: { webhook_id: webhookId } }, body: { event_type: eventType } });
    setResult(data);
  });
  return (
    <ActionCard
      titleId="test-title"
      title="Send a test event"
      action={send}
      submitLabel="Send test"
      inputs={
        <label>
          Event type
          <select value={eventType} onChange={(event) => setEventType(event.target.value as Schema<'EventKind'>)}>
            {kinds.map(({ event_type: kind }) => (
              <option key={kind}>{kind}</option>
            ))}
          </select>
        </label>
      }
    >
      {result && !send.busy ? (
        <p role="status">
          {result.status_code === 0 ? 'No answer' : `HTTP ${result.status_code}`} in {result.duration_ms} ms
          {result.error_message ? ` — ${result.error_message}` : ''}
          {result.response_body ? (
            <>
              {' '}
              — <code className="mono">{result.response_body.slice(0, 200)}</code>
            </>
          ) : null}
        </p>
      ) : null}
    </ActionCard>
  );
}

/** A new secret, shown once; the previous one keeps signing for the time asked. */
function RotateSecret({ webhookId }: { webhookId: string }) {
  const { api } = useSession();
  const [seconds, setSeconds] = useState('86400');
  const [rotated, setRotated] = useState<Schema<'WebhookSecretRotatedView'> | undefined>();
  const rotate = useAction(async () => {
    const { data } = await api.POST('/webhooks/{webhook_id}/rotate-secret', {
      params: { path: { webhook_id: webhookId } },
      body: { expire_previous_in_seconds: Number(seconds) },
    });
    setRotated(data);
  });
  return (
    <ActionCard
      titleId="rotate-title"
      title="Rotate the signing secret"
      action={rotate}
      submitLabel="Rotate secret"
      inputs={
        <label>
          Previous secret stays valid for (seconds)
          <input type="number" min={0} max={604800} value={seconds} onChange={(event) => setSeconds(event.target.value)} />
        </label>
      }
    >
      {rotated && !rotate.busy ? (
        <SecretOnce secret={rotated.secret} note={`The previous secret keeps working until ${new Date(rotated.previous_secret_expires_at).toLocaleString()}.`} />
      ) : null}
    </ActionCard>
  );
}
