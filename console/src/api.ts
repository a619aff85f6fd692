import { explain, NO_ANSWER } from './errors';
import { expireSession, getSession } from './session';

/**
 * The console's one way to the server: urnbase's public HTTP API, with the session's token.
 * Every refusal becomes an ApiError: its message in words (errors.ts), the field at fault, and the
 * server's own message as `details`; a 401 to the session's token ends the session and goes to
 * sign-in, which says why and returns here.
 */
export class ApiError extends Error {
  /** The server's message as it came. */
  readonly details: string;
  /** The field the refusal names (a property URN, `tag`, …), if any. */
  readonly field?: string;
  /** False when errors.ts did not know the message, and `message` is the server's own. */
  readonly explained: boolean;
  constructor(
    readonly status: number,
    serverMessage: string,
    readonly body: unknown,
  ) {
    const said = explain(status, serverMessage);
    super(said.text);
    this.details = serverMessage;
    this.field = said.field;
    this.explained = said.recognised;
  }
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Call {
  body?: unknown;
  headers?: Record<string, string>;
  /** Content type of the body (default application/json). */
  contentType?: string;
  signal?: AbortSignal;
  /** Statuses answered without throwing (e.g. 404 for "not there"). */
  accept?: number[];
}

export async function api<T = unknown>(method: string, path: string, call: Call = {}): Promise<Answer<T>> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  const res = await fetch(path, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body), signal: call.signal }).catch((error: unknown) => {
    // An abort stays an abort; anything else is a request that never got an answer.
    if (call.signal?.aborted) throw error;
    throw new ApiError(NO_ANSWER, error instanceof Error ? error.message : String(error), undefined);
  });
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  // Not for a session signed in since the request left (its token is another).
  if (res.status === 401 && session && getSession()?.token === session.token && !path.startsWith('/openapi/v2/auth/me')) expireSession();
  if (res.status >= 400 && !call.accept?.includes(res.status)) throw new ApiError(res.status, errorMessage(res.status, body), body);
  return { status: res.status, body: body as T, headers: res.headers };
}

/** The message a refusal carries: `{error, message}` (or Rest.li's `{message}`). */
export function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return `The server answered ${status}`;
}

/** A URN as one path segment. */
export const enc = encodeURIComponent;

export const V2 = '/openapi/v2/entity';
export const V3 = '/openapi/v3/entity';
