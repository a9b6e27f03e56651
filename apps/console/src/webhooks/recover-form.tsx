import { useState } from 'react';
import { useSession } from '../session-context';
import { ActionCard } from '../ui/action-form';
import { ErrorNote, Progress } from '../ui/feedback';
import { useAction, useLoadUntil } from '../ui/hooks';

const hoursAgo = (hours: number) => {
  const date = new Date(Date.now() - hours * 3_600_000);
  date.setSeconds(0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** Sends again every stored event of a time window that never reached the webhook; its progress is followed. */
export function RecoverForm({ webhookId }: { webhookId: string }) {
  const { api } = useSession();
  const [since, setSince] = useState(() => hoursAgo(24));
  const [until, setUntil] = useState('');
  const [recoveryId, setRecoveryId] = useState<string | undefined>();
  const recover = useAction(
    async () => {
      const { data } = await api.POST('/webhooks/{webhook_id}/recover', {
        params: { path: { webhook_id: webhookId } },
        body: { since: new Date(since).toISOString(), ...(until ? { until: new Date(until).toISOString() } : {}) },
      });
      setRecoveryId(data.recovery_id);
      return data;
    },
    () => 'Recovery queued',
  );
  return (
    <ActionCard
      titleId="recover-title"
      title="Recover missed events"
      action={recover}
      submitLabel="Recover"
      inputs={
        <>
          <label>
            Since
            <input type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} required />
          </label>
          <label>
            Until (empty: now)
            <input type="datetime-local" value={until} onChange={(event) => setUntil(event.target.value)} />
          </label>
        </>
      }
    >
      {recoveryId ? <RecoveryStatus key={recoveryId} webhookId={webhookId} recoveryId={recoveryId} /> : null}
    </ActionCard>
  );
}

function RecoveryStatus({ webhookId, recoveryId }: { webhookId: string; recoveryId: string }) {
  const { api } = useSession();
  const recovery = useLoadUntil(
    async () => (await api.GET('/webhooks/{webhook_id}/recoveries/{recovery_id}', { params: { path: { webhook_id: webhookId, recovery_id: recoveryId } } })).data,
    recoveryId,
    1000,
    (data) => Boolean(data.finished_at),
  );
  return (
    <div aria-live="polite">
      <ErrorNote error={recovery.error} />
      {recovery.data ? (
        <>
          {recovery.data.finished_at ? null : <Progress label="Recovery" />}
          <p role="status">
            Recovery {recovery.data.status}: {recovery.data.queued.toLocaleString()} event{recovery.data.queued === 1 ? '' : 's'} queued again
          </p>
        </>
      ) : null}
    </div>
  );
}
