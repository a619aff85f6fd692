import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routing (`/#/search?query=orders`): the server serves one page at `/`, and every view's
 * state lives in the URL, so a search or an entity can be shared and reloaded.
 */
export interface Route {
  /** `/search`, `/entity`, … */
  path: string;
  params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#/, '') || '/search';
  const [path, query = ''] = hash.split('?', 2) as [string, string?];
  return { path, params: new URLSearchParams(query) };
}

/** The href of a view: `#/path?k=v`; empty values are left out. */
export function href(path: string, params: Record<string, string | number | undefined | null | string[]> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const v of value) query.append(key, v);
    else if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

/** Where the browser is: the path and query of the hash (`/entity?urn=…`). */
export function here(): string {
  return location.hash.replace(/^#/, '') || '/search';
}

/**
 * The sign-in page, sent back to `next` (a path and query, as `here()` gives it) afterwards;
 * `expired` says the session ended because the server refused its token.
 */
export function signInHash(next: string, expired = false): string {
  const params = new URLSearchParams();
  if (next.startsWith('/') && !next.startsWith('/sign-in')) params.set('next', next);
  if (expired) params.set('reason', 'expired');
  const query = params.toString();
  return `/sign-in${query ? `?${query}` : ''}`;
}

/** Goes to a view; `replace` keeps the browser history from growing (typing in a search box). */
export function navigate(target: string, replace = false): void {
  const url = target.startsWith('#') ? target : `#${target}`;
  if (replace) {
    history.replaceState(null, '', url);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = url.slice(1);
  }
}

/** The route, re-rendered on every change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
