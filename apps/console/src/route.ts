import { useEffect, useState } from 'react';

/** The console's place lives in the URL's hash (`#/tables/<id>`): the gateway serves one file, and links and reloads keep working. */
function currentRoute(): string[] {
  return window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const follow = () => setRoute(currentRoute());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;

export function go(...parts: string[]): void {
  window.location.hash = href(...parts);
}
