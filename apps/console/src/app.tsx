import { useEffect, useState } from 'react';
import type { Area } from './access';
import { AvailabilityPage } from './availability/availability-page';
import { DomainsPage } from './domains/domains-page';
import { href, useRoute } from './route';
import { forgetKey, storedKey } from './session';
import { SessionContext, type Session } from './session-context';
import { openSession, SignIn } from './sign-in';
import { TablesPage } from './tables/tables-page';
import { WebhooksPage } from './webhooks/webhooks-page';

const SECTIONS: { area: Area; path: string; title: string }[] = [
  { area: 'tables', path: 'tables', title: 'Tables' },
  { area: 'webhooks', path: 'webhooks', title: 'Webhooks' },
  { area: 'domains', path: 'domains', title: 'Domains' },
  { area: 'calendar', path: 'availability', title: 'Availability' },
];

export function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [restoring, setRestoring] = useState(() => storedKey() !== null);
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    openSession(key)
      .then(setSession)
      .catch(forgetKey)
      .finally(() => setRestoring(false));
  }, []);
  if (restoring) return <p role="status">Signing in…</p>;
  if (!session) return <SignIn onSignedIn={setSession} />;
  const signOut = () => {
    forgetKey();
    setSession(undefined);
    window.location.hash = '';
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} onSignOut={signOut} />
    </SessionContext.Provider>
  );
}

function Shell({ session, onSignOut }: { session: Session; onSignOut(): void }) {
  const [section = '', ...rest] = useRoute();
  const open = SECTIONS.filter(({ area }) => session.access[area].read);
  const closed = SECTIONS.filter(({ area }) => !session.access[area].read);
  const current = open.find(({ path }) => path === section) ?? open[0];
  return (
    <>
      <header className="top">
        <a className="brand" href={href()}>
          Console
        </a>
        <nav aria-label="Sections">
          {open.map(({ path, title }) => (
            <a key={path} href={href(path)} aria-current={current?.path === path ? 'page' : undefined}>
              {title}
            </a>
          ))}
        </nav>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main>
        {closed.length > 0 ? (
          <details className="note">
            <summary>This key cannot see {closed.map(({ title }) => title).join(', ')}</summary>
            <ul>
              {closed.map(({ area, title }) => (
                <li key={area}>
                  {title}: {session.access[area].refusal}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {current === undefined ? <p>This key may read nothing the console shows.</p> : <Section area={current.area} route={rest} />}
      </main>
    </>
  );
}

function Section({ area, route }: { area: Area; route: string[] }) {
  switch (area) {
    case 'tables':
      return <TablesPage route={route} />;
    case 'webhooks':
      return <WebhooksPage route={route} />;
    case 'domains':
      return <DomainsPage route={route} />;
    case 'calendar':
      return <AvailabilityPage />;
  }
}
