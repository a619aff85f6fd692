import { useEffect, useState } from 'preact/hooks';
import { here, navigate, signInHash } from './router';

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

/**
 * The server refused the session's token (revoked, or expired): back to sign-in, saying why, and
 * to this very place afterwards. Only the session goes: the rest of sessionStorage (an unsaved
 * draft) stays for the return.
 */
export function expireSession(): void {
  if (!getSession()) return;
  // The sign-in page first: the app, seeing no session, would send it there without a reason.
  if (!here().startsWith('/sign-in')) navigate(signInHash(here(), true), true);
  setSession(undefined);
}

/** Editors and admins write; viewers read. */
export const canWrite = (session: Session | undefined) => session?.role === 'editor' || session?.role === 'admin';
export const isAdmin = (session: Session | undefined) => session?.role === 'admin';
