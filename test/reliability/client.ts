/** A small HTTP client for a server process: JSON in and out, with a bearer token. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export class Client {
  constructor(
    readonly base: string,
    private readonly token?: string,
  ) {}

  /** Throws when the connection fails (the server is gone): the caller decides what that means. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = { ...headers };
    if (this.token) all.authorization = `Bearer ${this.token}`;
    if (body !== undefined) all['content-type'] ??= 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: all,
      body: body === undefined ? undefined : typeof body === 'string' ? body : body instanceof Uint8Array ? new Blob([new Uint8Array(body)]) : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
}
