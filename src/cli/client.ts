import { readYamlText, YamlFileError } from '../yaml-list.js';

/** A small HTTP client for the CLI commands that talk to a running urnbase. */
export interface ClientOptions {
  url: string;
  token?: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

export class ApiClient {
  constructor(private readonly options: ClientOptions) {}

  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let res: Response;
    try {
      res = await fetch(new URL(path, this.options.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new Error(`cannot reach urnbase at ${this.options.url}: ${(error as Error).cause ?? (error as Error).message}`);
    }
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }
}

/**
 * Reads and converts a YAML file; a problem with it is reported as one `error     …` line and
 * gives undefined (the command then exits 1).
 */
export function fromYamlFile<T>(file: string, convert: (text: string) => T, out: (line: string) => void): T | undefined {
  try {
    return convert(readYamlText(file));
  } catch (error) {
    if (!(error instanceof YamlFileError)) throw error;
    out(`error     ${error.message}`);
    return undefined;
  }
}

/** The message of an error body `{error, message}`. */
export function errorMessage(response: ApiResponse): string {
  const body = response.body as { error?: string; message?: string } | undefined;
  return body?.message ?? body?.error ?? `HTTP ${response.status}`;
}

/**
 * Writes one aspect unless the stored value already equals it (per `same`); the line says what
 * happened: `created`, `updated`, `unchanged` or `error     <urn>: <message>`.
 */
export async function upsertAspect(
  client: ApiClient,
  path: string,
  urn: string,
  value: unknown,
  same: (stored: unknown) => boolean,
): Promise<{ line: string; failed: boolean }> {
  const current = await client.request('GET', path);
  if (current.status === 200 && same((current.body as { value: unknown }).value)) return { line: `unchanged ${urn}`, failed: false };
  const written = await client.request('POST', path, value);
  if (written.status !== 200) return { line: `error     ${urn}: ${errorMessage(written)}`, failed: true };
  return { line: `${current.status === 404 ? 'created  ' : 'updated  '} ${urn}`, failed: false };
}
