import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { actorName, ErrorMessage, Loading } from '../components/common';
import { faultyField } from '../errors';
import type { Route } from '../router';
import type { Role, Session } from '../session';
import './tokens.css';

/** A token as the server lists it (never its secret). */
interface TokenInfo {
  id: string;
  name: string;
  role: Role;
  actorUrn: string;
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface CreatedToken {
  id: string;
  name: string;
  role: Role;
  actorUrn: string;
  expiresAt: string | null;
  token: string;
}

const TOKENS = '/openapi/v2/auth/tokens';

/** What the last action came to: an error shown where it happened, or a revocation done. */
type Outcome = { at: 'create' | 'revoke'; error: unknown } | { at: 'revoke'; done: string } | undefined;

/** The first characters of a token's id: enough to tell two tokens of one name apart. */
const shortId = (id: string) => id.slice(0, 8);

/** A token as people name it: its name, and its short id when another live token has the name. */
function labelOf(token: TokenInfo, all: TokenInfo[]): string {
  const twin = all.some((t) => t.id !== token.id && t.name === token.name && !t.revokedAt);
  return twin ? `${token.name} (${shortId(token.id)})` : token.name;
}

/**
 * Access tokens (admins only; the route table keeps others out): create one (its secret shown
 * once), list them all, revoke one after a confirmation. Each action replaces what the last one
 * said: an error does not outlive a later success.
 */
export default function Tokens(_: { route: Route; session: Session }) {
  const [tokens, setTokens] = useState<TokenInfo[]>();
  const [loadError, setLoadError] = useState<unknown>();
  const [created, setCreated] = useState<CreatedToken>();
  const [outcome, setOutcome] = useState<Outcome>();

  const load = async () => {
    try {
      setTokens((await api<TokenInfo[]>('GET', TOKENS)).body);
      setLoadError(undefined);
    } catch (e) {
      setLoadError(e);
    }
  };
  useEffect(() => void load(), []);

  return (
    <>
      <h1>Tokens</h1>
      <CreateToken
        tokens={tokens ?? []}
        error={outcome?.at === 'create' && 'error' in outcome ? outcome.error : undefined}
        onStart={() => setOutcome(undefined)}
        onFailed={(error) => setOutcome({ at: 'create', error })}
        onCreated={(token) => {
          setCreated(token);
          void load();
        }}
      />
      {created && <Secret token={created} onDone={() => setCreated(undefined)} />}
      <section class="card" aria-labelledby="tokens-list">
        <h2 id="tokens-list">All tokens</h2>
        <ErrorMessage error={loadError} />
        <p role="status" class="ok tokens-done">
          {outcome && 'done' in outcome ? outcome.done : ''}
        </p>
        {!tokens && !loadError && <Loading />}
        {tokens && tokens.length === 0 && <p class="muted">No tokens yet.</p>}
        {tokens && tokens.length > 0 && (
          <TokenTable
            tokens={tokens}
            error={outcome?.at === 'revoke' && 'error' in outcome ? outcome.error : undefined}
            onStart={() => setOutcome(undefined)}
            onFailed={(error) => setOutcome({ at: 'revoke', error })}
            onRevoked={async (label) => {
              setOutcome({ at: 'revoke', done: `Revoked token ${label}.` });
              await load();
            }}
          />
        )}
      </section>
    </>
  );
}

interface Reports {
  error: unknown;
  /** An action starts: what the last one said goes. */
  onStart: () => void;
  onFailed: (error: unknown) => void;
}

function CreateToken({ tokens, error, onStart, onFailed, onCreated }: Reports & { tokens: TokenInfo[]; onCreated: (token: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [days, setDays] = useState('');
  const [busy, setBusy] = useState(false);
  // Names need not be unique (DataHub's are not): a second one is allowed, and said so.
  const namesakes = tokens.filter((t) => t.name === name.trim() && !t.revokedAt);
  const nameRefused = faultyField(error) === 'name';

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    onStart();
    try {
      const body: Record<string, unknown> = { name: name.trim(), role };
      if (days.trim() !== '') body.expiresInDays = Number(days);
      const made = await api<CreatedToken>('POST', TOKENS, { body });
      setName('');
      setDays('');
      onCreated(made.body);
    } catch (e) {
      onFailed(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="tokens-create">
      <h2 id="tokens-create">Create a token</h2>
      <form onSubmit={submit} class="tokens-form">
        <div>
          <label for="token-name">Name</label>
          <input
            id="token-name"
            type="text"
            value={name}
            required
            aria-invalid={nameRefused || undefined}
            aria-describedby={`token-name-help token-name-twin${nameRefused ? ' token-create-error' : ''}`}
            onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          <p class="muted" id="token-name-help">
            Letters, digits, ".", "_", "@" or "-"; its writes are recorded as <code>urn:li:corpuser:&lt;name&gt;</code>.
          </p>
          <p class="tokens-twin" id="token-name-twin" role="status">
            {namesakes.length > 0
              ? `${namesakes.length === 1 ? 'A live token has' : `${namesakes.length} live tokens have`} this name already (${namesakes.map((t) => `id ${shortId(t.id)}, created ${localTime(t.createdAt)}`).join('; ')}): the list tells them apart by their ids.`
              : ''}
          </p>
        </div>
        <div>
          <label for="token-role">Role</label>
          <select id="token-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            <option value="viewer">viewer (reads)</option>
            <option value="editor">editor (reads and writes)</option>
            <option value="admin">admin (everything, tokens too)</option>
          </select>
        </div>
        <div>
          <label for="token-days">Expires in days</label>
          <input id="token-days" type="number" min={1} max={3650} step={1} value={days} aria-describedby="token-days-help" onInput={(e) => setDays((e.target as HTMLInputElement).value)} />
          <p class="muted" id="token-days-help">
            Empty: never expires.
          </p>
        </div>
        <ErrorMessage error={error} id="token-create-error" />
        <button type="submit" disabled={busy || name.trim() === ''}>
          Create token
        </button>
      </form>
    </section>
  );
}

/** The new token's secret, shown this once. */
function Secret({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string>();
  useEffect(() => field.current?.focus(), [token]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied('Copied to the clipboard.');
    } catch {
      field.current?.select();
      setCopied(document.execCommand('copy') ? 'Copied to the clipboard.' : 'Copying was refused: select the secret and copy it.');
    }
  };

  return (
    <section class="card tokens-secret" aria-labelledby="tokens-secret">
      <h2 id="tokens-secret">Token {token.name} created</h2>
      <p class="tokens-warning">
        Copy the secret now: it will not be shown again. Send it as <code>Authorization: Bearer &lt;secret&gt;</code>.
      </p>
      <label for="token-secret">Secret of {token.name}</label>
      <div class="row">
        <input id="token-secret" ref={field} type="text" readOnly value={token.token} class="tokens-secret-value" onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" class="muted">
        {copied ?? ''}
      </p>
    </section>
  );
}

function TokenTable({ tokens, error, onStart, onFailed, onRevoked }: Reports & { tokens: TokenInfo[]; onRevoked: (label: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState<string>();
  const [busy, setBusy] = useState(false);
  const now = Date.now();

  const revoke = async (token: TokenInfo, label: string) => {
    setBusy(true);
    onStart();
    try {
      await api('DELETE', `${TOKENS}/${encodeURIComponent(token.id)}`);
      setConfirming(undefined);
      await onRevoked(label);
    } catch (e) {
      onFailed(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ErrorMessage error={error} />
      <div class="tokens-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Role</th>
              <th scope="col">Actor</th>
              <th scope="col">Created</th>
              <th scope="col">Created by</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Revoked</th>
              <th scope="col">
                <span class="tokens-sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => {
              const expired = t.expiresAt !== null && Date.parse(t.expiresAt) <= now;
              const label = labelOf(t, tokens);
              return (
                <tr key={t.id}>
                  <th scope="row">{t.name}</th>
                  <td>
                    <code title={t.id}>{shortId(t.id)}</code>
                  </td>
                  <td>{t.role}</td>
                  <td>
                    <BreakAfterColons text={t.actorUrn} />
                  </td>
                  <td>
                    <Time iso={t.createdAt} />
                  </td>
                  <td title={t.createdBy}>{creatorName(t.createdBy)}</td>
                  <td>{t.expiresAt ? <Time iso={t.expiresAt} suffix={expired ? ' (expired)' : ''} /> : 'never'}</td>
                  <td>{t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : 'never'}</td>
                  <td>{t.revokedAt ? <Time iso={t.revokedAt} /> : 'no'}</td>
                  <td>
                    {t.revokedAt ? null : confirming === t.id ? (
                      <ConfirmRevoke name={label} busy={busy} onYes={() => revoke(t, label)} onCancel={() => setConfirming(undefined)} />
                    ) : (
                      <button type="button" class="secondary" aria-label={`Revoke ${label}`} onClick={() => setConfirming(t.id)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The confirmation, in place of the Revoke button; focus moves to it (Cancel, the safe choice). */
function ConfirmRevoke({ name, busy, onYes, onCancel }: { name: string; busy: boolean; onYes: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div class="tokens-confirm" role="group" aria-label={`Confirm revoking ${name}`}>
      <span>Revoke {name}? Clients using it are refused at once.</span>
      <button type="button" class="danger" disabled={busy} onClick={onYes}>
        Yes, revoke {name}
      </button>
      <button type="button" class="secondary" ref={cancel} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** Who created a token: a user by name (`admin`); the system's tokens are the CLI's and a first start's admin token. */
function creatorName(actor: string): string {
  return actorName(actor, 'command line or first start');
}

/** A URN that may wrap after its colons (`urn:li:corpuser:` then the name), not inside the name. */
function BreakAfterColons({ text }: { text: string }) {
  return (
    <>
      {text.split(/(?<=:)/).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function Time({ iso, suffix = '' }: { iso: string; suffix?: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {localTime(iso)}
      {suffix}
    </time>
  );
}

/** `2025-05-01 14:03`, in the browser's time zone. */
function localTime(time: string | number): string {
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
