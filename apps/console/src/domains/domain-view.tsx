import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import { DataTable } from '../ui/data-table';
import { ConfirmButton, CopyButton, ErrorNote, Outcome } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { DomainStatus } from './domains-page';

type Verification = Schema<'DomainVerification'>;

/** A domain: the records to set (each with a copy button), a check now with its issues in words, and its addresses. */
export function DomainView({ domainId }: { domainId: string }) {
  const { api, access } = useSession();
  const [round, setRound] = useState(0);
  const domain = useLoad(() => api.GET('/domains/{domain_id}', { params: { path: { domain_id: domainId } } }).then((answer) => answer.data), `${domainId}:${round}`);
  const verify = useAction(
    async () => {
      const { data } = await api.GET('/domains/{domain_id}/verify', { params: { path: { domain_id: domainId } } });
      setRound((n) => n + 1);
      return data;
    },
    (result: Verification) => (result.all_verified ? 'Every record is in place' : `Checked: ${result.issues?.length ?? 0} issue${result.issues?.length === 1 ? '' : 's'}`),
  );
  const remove = useAction(async () => {
    await api.DELETE('/domains/{domain_id}', { params: { path: { domain_id: domainId } } });
    go('domains');
  });
  const data = domain.data;
  if (!data) {
    return (
      <section>
        <p>
          <a href={href('domains')}>← Domains</a>
        </p>
        {domain.loading ? <p role="status">Loading…</p> : <ErrorNote error={domain.error} />}
      </section>
    );
  }
  const checks: [string, boolean][] = [
    ['Any record seen', data.dns_configured],
    ['MX', data.mx_verified],
    ['SPF', data.spf_verified],
    ['DKIM', data.dkim_verified],
  ];
  return (
    <section>
      <p>
        <a href={href('domains')}>← Domains</a>
      </p>
      <h1>
        {data.domain} <DomainStatus status={data.status} />
      </h1>
      <p className="muted">
        Last checked {data.last_checked_at ? new Date(data.last_checked_at).toLocaleString() : 'never'}
        {data.verified_at ? ` · verified ${new Date(data.verified_at).toLocaleString()}` : ''}
      </p>
      <ul className="checks-list" aria-label="Checks">
        {checks.map(([name, ok]) => (
          <li key={name} className={ok ? 'ok' : 'missing'}>
            {ok ? '✓' : '✗'} {name}
          </li>
        ))}
      </ul>
      <h2>DNS records to set</h2>
      <DataTable
        label="DNS records"
        className="records"
        rows={data.dns_records ?? []}
        rowKey={(_, index) => index}
        columns={[
          { header: 'Type', cell: (record) => record.type },
          {
            header: 'Name',
            className: 'break',
            cell: (record) => (
              <>
                <code>{record.name}</code> <CopyButton value={record.name} label={`${record.type} record name ${record.name}`} />
              </>
            ),
          },
          {
            header: 'Value',
            className: 'break',
            cell: (record) => (
              <>
                <code>{record.value}</code> <CopyButton value={record.value} label={`${record.type} record value for ${record.name}`} />
              </>
            ),
          },
          { header: 'Priority', cell: (record) => record.priority ?? '' },
        ]}
      />
      {access.domains.write ? (
        <div className="actions">
          <button type="button" className="primary" disabled={verify.busy} onClick={() => void verify.run()}>
            Verify now
          </button>
          <Outcome action={verify} />
        </div>
      ) : null}
      <h2>Issues</h2>
      {(data.issues ?? []).length === 0 ? (
        <p>{data.last_checked_at ? 'None.' : 'Not checked yet.'}</p>
      ) : (
        <ul className="issues">
          {(data.issues ?? []).map((issue, index) => (
            <li key={index}>{issue}</li>
          ))}
        </ul>
      )}
      <EmailAddresses domainId={domainId} active={data.status === 'active'} />
      {access.domains.write ? (
        <div className="card danger-zone">
          <h2>Delete this domain</h2>
          <p>Its email addresses go with it.</p>
          <ConfirmButton label="Delete domain" confirm={`Delete ${data.domain} for good`} onConfirm={() => void remove.run()} />
          <Outcome action={remove} />
        </div>
      ) : null}
    </section>
  );
}

function EmailAddresses({ domainId, active }: { domainId: string; active: boolean }) {
  const { api, access } = useSession();
  const [localPart, setLocalPart] = useState('');
  const [primary, setPrimary] = useState(false);
  const [round, setRound] = useState(0);
  const emails = useLoad(() => api.GET('/domains/{domain_id}/emails', { params: { path: { domain_id: domainId }, query: { limit: 100 } } }), `${domainId}:${round}`);
  const add = useAction(
    async () => {
      const { data } = await api.POST('/domains/{domain_id}/emails', { params: { path: { domain_id: domainId } }, body: { local_part: localPart, is_primary: primary } });
      setLocalPart('');
      setRound((n) => n + 1);
      return data;
    },
    (created) => `Added ${created.address}`,
  );
  const submit = submitting(add.run);
  return (
    <section aria-labelledby="emails-title">
      <h2 id="emails-title">Email addresses</h2>
      <ErrorNote error={emails.error} />
      <ul className="plain">
        {(emails.data?.data ?? []).map((email) => (
          <li key={email.id}>
            <code>{email.address}</code>
            {email.is_primary ? ' (primary)' : ''}
          </li>
        ))}
      </ul>
      {emails.data && emails.data.data.length === 0 ? <p>No addresses yet{active ? '' : ': the domain must be verified first'}.</p> : null}
      {access.domains.write ? (
        <form className="row-of-inputs" onSubmit={submit}>
          <label>
            Local part
            <input value={localPart} onChange={(event) => setLocalPart(event.target.value)} placeholder="hello" required />
          </label>
          <label className="inline">
            <input type="checkbox" checked={primary} onChange={(event) => setPrimary(event.target.checked)} />
            Primary
          </label>
          <button type="submit" disabled={add.busy}>
            Add address
          </button>
          <Outcome action={add} />
        </form>
      ) : null}
    </section>
  );
}
