import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiFailure, request } from './client';
import type { Me } from './types';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signedIn'; me: Me }
  | { status: 'signedOut' }
  | { status: 'error'; error: ApiFailure };

interface Session {
  state: SessionState;
  me: Me | null;
  refresh: () => Promise<void>;
  signIn: (username: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
}

/** The reader of a service built without authentication (no /api/v1/me): reads only, no session to end. */
export const ANONYMOUS = 'anonymous';

const SessionContext = createContext<Session | null>(null);

/** Who is signed in ({@code GET /api/v1/me}), and the browser session's sign-in and sign-out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      const me = await request<Me>('/api/v1/me');
      setState({ status: 'signedIn', me: { ...me, roles: me.roles ?? [] } });
    } catch (e) {
      if (e instanceof ApiFailure && e.kind === 'unauthenticated') {
        setState({ status: 'signedOut' });
      } else if (e instanceof ApiFailure && e.kind === 'notFound') {
        // a service built without authentication: everyone reads, nobody gets edit controls
        setState({ status: 'signedIn', me: { user: ANONYMOUS, roles: ['VIEWER'] } });
      } else {
        setState({
          status: 'error',
          error: e instanceof ApiFailure ? e : new ApiFailure('server', 0, String(e)),
        });
      }
    }
  }, []);

  const signIn = useCallback(
    async (username: string, password: string) => {
      await request<unknown>('/api/v1/session', { method: 'POST', body: { username, password } });
      await refresh();
    },
    [refresh],
  );

  const signOut = useCallback(async () => {
    try {
      await request<unknown>('/api/v1/session', { method: 'DELETE' });
    } finally {
      setState({ status: 'signedOut' });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const me = state.status === 'signedIn' ? state.me : null;
  return (
    <SessionContext.Provider value={{ state, me, refresh, signIn, signOut }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** For component tests: a fixed session. */
export function StaticSession({ me, children }: { me: Me | null; children: ReactNode }) {
  const noop = async () => {};
  const state: SessionState = me ? { status: 'signedIn', me } : { status: 'signedOut' };
  return (
    <SessionContext.Provider value={{ state, me, refresh: noop, signIn: noop, signOut: noop }}>
      {children}
    </SessionContext.Provider>
  );
}
