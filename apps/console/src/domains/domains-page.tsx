import type { Schema } from '@org-data-platform/sdk';
import { useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import type { Column } from '../ui/data-table';
import { Outcome } from '../ui/feedback';
import { useAction } from '../ui/hooks';
import { PagedTable, usePagedList } from '../ui/paged-list';
import { DomainView } from './domain-view';

export function DomainsPage({ route }: { route: string[] }) {
  const [domainId] = route;
  if (domainId) return <DomainView key={domainId} domainId={domainId} />;
  return <DomainsList />;
}

export function DomainStatus({ status }: { status: Schema<'DomainStatus'> }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

const COLUMNS: Column<Schema<'DomainView'>>[] = [
  { header: 'Domain', cell: (domain) => <a href={href('domains', domain.id)}>{domain.domain}</a> },
  { header: 'Status', cell: (domain) => <DomainStatus status={domain.status} /> },
  { header: 'Last check', cell: (domain) => (domain.last_checked_at ? new Date(domain.last_checked_at).toLocaleString() : 'not yet') },
];

function DomainsList() {
  const { api, access } = useSession();
  const domains = usePagedList((query) => api.GET('/domains', { params: { query } }));
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const { data } = await api.POST('/domains', { body: { domain: name.trim() } });
    go('domains', data.id);
  });
  const submit = submitting(add.run);
  return (
    <section>
      <h1>Domains</h1>
      <PagedTable list={domains} label="Domains" empty="No domains yet." columns={COLUMNS} />
      {access.domains.write ? (
        <form className="card" onSubmit={submit} aria-labelledby="add-domain">
          <h2 id="add-domain">Add a domain</h2>
          <div className="row-of-inputs">
            <label>
              Domain
              <input value={name} onChange={(event) => setName(event.target.value)} placeholder="mail.example.com" required />
            </label>
            <button type="submit" className="primary" disabled={add.busy}>
              Add domain
            </button>
          </div>
          <Outcome action={add} />
        </form>
      ) : null}
    </section>
  );
}
