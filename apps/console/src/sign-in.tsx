import { type FormEvent, useState } from 'react';
import { probeAccess } from './access';
import type { Session } from './session-context';
import { apiFor, storeKey } from './session';
import { ErrorNote } from './ui/feedback';
import { useAction } from './ui/hooks';

/** Opens a session with an API key: the key is checked against the API, then kept in session storage. */
export async function openSession(key: string): Promise<Session> {
  const api = apiFor(key);
  return { api, access: await probeAccess(api) };
}

export function SignIn({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [key, setKey] = useState('');
  const signIn = useAction(async (given: string) => {
    const session = await openSession(given);
    storeKey(given);
    onSignedIn(session);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signIn.run(key.trim());
  };
  return (
    <main className="sign-in">
      <h1>Console</h1>
      <p>Sign in with an API key. It stays in this tab only and is forgotten when you sign out or close the tab.</p>
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} required />
        <button type="submit" disabled={signIn.busy || key.trim() === ''}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorNote error={signIn.error} />
      </form>
    </main>
  );
}
