import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { usageError } from './command.js';
import { readYamlText, YamlFileError } from '../yaml-list.js';

/** The flags of the commands that talk to a running urnbase over HTTP. */
export const CLIENT_OPTIONS = {
  url: { type: 'string', value: 'URL', help: 'the urnbase server', env: 'URNBASE_URL', default: 'http://127.0.0.1:8080' },
  token: { type: 'string', value: 'TOKEN', help: 'bearer token', env: 'URNBASE_TOKEN', default: '<data-dir>/admin.token for a server on this machine' },
  'data-dir': { type: 'string', value: 'DIR', help: "the local server's data dir, where admin.token is read", env: 'URNBASE_DATA_DIR', default: './data' },
} as const;

/** A small HTTP client for the CLI commands that talk to a running urnbase. */
export interface ClientOptions {
  url: string;
  token?: string;
  /**
   * When set, a 401 stops the command with this one line (exit code 2) instead of being reported
   * per item: the token was not given explicitly, so the setup is at fault, not the item.
   */
  unauthorized?: (message: string) => string;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/**
 * The client for --url/--token/--data-dir. The token is --token, else $URNBASE_TOKEN, else the
 * admin token the first start of a local server wrote to `<data-dir>/admin.token`. That file is
 * only read for a server on this machine: its admin secret is not sent to another host.
 */
export function clientFor(
  command: string,
  values: { url?: string; token?: string; 'data-dir'?: string },
  env: NodeJS.ProcessEnv = process.env,
): ApiClient {
  const url = values.url ?? env.URNBASE_URL ?? DEFAULT_URL;
  if (!isHttpUrl(url)) {
    throw usageError(command, `Invalid ${values.url !== undefined ? '--url' : 'URNBASE_URL'} ${JSON.stringify(url)}: expected a URL such as ${DEFAULT_URL}`);
  }
  const token = values.token ?? env.URNBASE_TOKEN;
  if (token) return new ApiClient({ url, token });
  const file = resolve(values['data-dir'] ?? env.URNBASE_DATA_DIR ?? './data', 'admin.token');
  const how = 'pass --token TOKEN or set URNBASE_TOKEN';
  if (!isLoopback(url)) {
    return new ApiClient({ url, unauthorized: () => `${url} needs a token and none was given (${file} is only sent to a server on this machine): ${how}` });
  }
  const fromFile = readToken(file);
  if (fromFile === undefined) {
    return new ApiClient({ url, unauthorized: () => `${url} needs a token and none was given (no ${file}): ${how}, or point --data-dir at the server's data dir` });
  }
  return new ApiClient({ url, token: fromFile, unauthorized: (message) => `${url} refused the token in ${file} (${message}): ${how}` });
}

/** The token in the file, or undefined when there is none. */
function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read the admin token in ${file}: ${(error as Error).message}; pass --token TOKEN or set URNBASE_TOKEN`);
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

export class ApiClient {
  constructor(readonly options: ClientOptions) {}

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
    if (res.status === 401 && this.options.unauthorized) {
      throw new ConfigError(this.options.unauthorized(errorMessage({ status: 401, body: parseBody(text) })));
    }
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

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
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
