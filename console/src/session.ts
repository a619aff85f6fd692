import { useEffect, useState } from 'preact/hooks';

/**
 * Who is signed in. The token lives in sessionStorage: it lasts while the tab does, is never put
 * in a URL, and goes at sign-out or at the first 401.
 */
export type Role = 'viewer' | 'editor' | 'admin';

export interface Session {
  token: string;
  actor: string;
  role: Role;
}

const KEY = 'urnbase.session';
const listeners = new Set<() => void>();

export function getSession(): Session | undefined {
  const text = sessionStorage.getItem(KEY);
  return text ? (JSON.parse(text) as Session) : undefined;
}

export function setSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function useSession(): Session | undefined {
  const [session, set] = useState(getSession);
  useEffect(() => {
    const update = () => set(getSession());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return session;
}

/** Editors and admins write; viewers read. */
export const canWrite = (session: Session | undefined) => session?.role === 'editor' || session?.role === 'admin';
export const isAdmin = (session: Session | undefined) => session?.role === 'admin';
