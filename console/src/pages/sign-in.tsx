import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorMessage } from '../components/common';
import { navigate } from '../router';
import { setSession, type Role } from '../session';

/** Sign in with an access token: checked against the server, kept for this browser tab only. */
export default function SignIn({ next }: { next?: string }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch('/openapi/v2/auth/me', { headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' } });
      const body = (await res.json()) as { actor?: string; role?: Role; message?: string; error?: string };
      if (res.status !== 200) throw new ApiError(res.status, body.message ?? body.error ?? 'Sign-in failed', body);
      setSession({ token: token.trim(), actor: body.actor!, role: body.role! });
      navigate(next && next !== '/sign-in' ? next : '/search');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to urnbase</h1>
      <form onSubmit={submit} class="card">
        <label for="token">Access token</label>
        <input id="token" type="password" autocomplete="off" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} required />
        <p class="muted">
          The first admin token is in <code>data/admin.token</code>; an admin creates others under Tokens. The token stays in this tab only.
        </p>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}

/** The signed-in principal, as the server sees it. */
export async function whoAmI() {
  return (await api<{ actor: string; role: Role }>('GET', '/openapi/v2/auth/me')).body;
}
