import type { Schema } from '@org-data-platform/sdk';
import { type FormEvent, useState } from 'react';
import { go, href } from '../route';
import { useSession } from '../session-context';
import { ErrorNote, Outcome, Pager, ScrollBox } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { DomainView } from './domain-view';

const PAGE_SIZE = 50;

export function DomainsPage({ route }: { route: string[] }) {
  const [domainId] = route;
  if (domainId) return <DomainView key={domainId} domainId={domainId} />;
  return <DomainsList />;
}

export function DomainStatus({ status }: { status: Schema<'DomainStatus'> }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

function DomainsList() {
  const { api, access } = useSession();
  const [page, setPage] = useState(1);
  const domains = useLoad(() => api.GET('/domains', { params: { query: { page, limit: PAGE_SIZE } } }), String(page));
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const { data } = await api.POST('/domains', { body: { domain: name.trim() } });
    go('domains', data.id);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add.run();
  };
  return (
    <section>
      <h1>Domains</h1>
      <ErrorNote error={domains.error} />
      {domains.data && domains.data.data.length === 0 ? <p>No domains yet.</p> : null}
      {domains.data && domains.data.data.length > 0 ? (
        <ScrollBox label="Domains">
          <table>
            <caption className="visually-hidden">Domains</caption>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Status</th>
                <th scope="col">Last check</th>
              </tr>
            </thead>
            <tbody>
              {domains.data.data.map((domain) => (
                <tr key={domain.id}>
                  <td>
                    <a href={href('domains', domain.id)}>{domain.domain}</a>
                  </td>
                  <td>
                    <DomainStatus status={domain.status} />
                  </td>
                  <td>{domain.last_checked_at ? new Date(domain.last_checked_at).toLocaleString() : 'not yet'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
      {domains.data ? <Pager page={page} limit={PAGE_SIZE} total={domains.data.pagination.total} onPage={setPage} /> : null}
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
