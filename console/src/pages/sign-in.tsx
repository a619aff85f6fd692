import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorMessage } from '../components/common';
import { navigate } from '../router';
import { setSession, type Role } from '../session';
import './sign-in.css';

/** Where the first admin token is, as the server tells it (src/api/v2/sign-in-hint.ts). */
type Hint = { adminToken: 'file'; file: string } | { adminToken: 'data-dir' | 'environment' | 'none' };

/**
 * Sign in with an access token: checked against the server, kept for this browser tab only.
 * Afterwards the browser goes to `next` (where it was sent from, path and query); `expired` says
 * the server refused the token the tab had.
 */
export default function SignIn({ next, expired }: { next?: string; expired?: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<Hint>();

  useEffect(() => {
    const controller = new AbortController();
    // Without the hint the page still works: the generic words stand.
    api<Hint>('GET', '/openapi/v2/auth/sign-in-hint', { signal: controller.signal }).then(
      (answer) => setHint(answer.body),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch('/openapi/v2/auth/me', { headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' } });
      const body = (await res.json()) as { actor?: string; role?: Role; message?: string; error?: string };
      if (res.status !== 200) throw new ApiError(res.status, body.message ?? body.error ?? 'Sign-in failed', body);
      setSession({ token: token.trim(), actor: body.actor!, role: body.role! });
      // Only a view of this console: `next` is a path of the hash, never another site.
      navigate(next?.startsWith('/') && !next.startsWith('/sign-in') ? next : '/search');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to urnbase</h1>
      {expired && (
        <p class="sign-in-reason" role="alert">
          Your token was revoked or has expired — sign in again.
        </p>
      )}
      <form onSubmit={submit} class="card">
        <label for="token">Access token</label>
        <input id="token" type="password" autocomplete="off" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} required />
        <p class="muted">
          <TokenHint hint={hint} /> The token stays in this tab only.
        </p>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function TokenHint({ hint }: { hint?: Hint }) {
  switch (hint?.adminToken) {
    case 'file':
      return (
        <>
          The first admin token is in <code class="sign-in-path">{hint.file}</code>; an admin creates others under Tokens.
        </>
      );
    case 'environment':
      return (
        <>
          The admin token is the value of <code>URNBASE_ADMIN_TOKEN</code> the server was started with; an admin creates others under Tokens.
        </>
      );
    case 'none':
      return (
        <>
          Ask an admin for a token, or create one on the server's machine with <code>urnbase token create --name NAME --role admin</code>.
        </>
      );
    default:
      return (
        <>
          The first admin token is in <code>admin.token</code> in the server's data directory; an admin creates others under Tokens.
        </>
      );
  }
}

/** The signed-in principal, as the server sees it. */
export async function whoAmI() {
  return (await api<{ actor: string; role: Role }>('GET', '/openapi/v2/auth/me')).body;
}
