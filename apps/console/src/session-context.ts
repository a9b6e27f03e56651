import type { DataClient } from '@org-data-platform/sdk';
import { createContext, useContext } from 'react';
import type { Access } from './access';

export interface Session {
  api: DataClient;
  access: Access;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in session; every page below the sign-in has one. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}
