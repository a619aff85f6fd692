import { compareJson } from './compare.js';
import type { FixtureRequest, FixtureStep } from './fixture.js';
import { isObject, JsonNumber, JsonSyntaxError, parseLexical, stringifyLexical, type LexicalJson } from './lexical-json.js';

/** One HTTP exchange; the runner needs nothing else of the server (app.inject, or a real socket). */
export type Transport = (request: { method: string; url: string; headers: Record<string, string>; body?: string }) => Promise<{
  status: number;
  body: string;
}>;

export interface RunOptions {
  transport: Transport;
  /** Sent as `Authorization: Bearer …` on every request, as DataHub's smoke session does. */
  token?: string;
  /** How a `wait` step waits (default: really sleeps that long). */
  sleep?: (seconds: number) => Promise<void>;
  /**
   * Recognizes the server's answer for a route it does not serve (a reason, or undefined). Such a
   * step fails whatever its status_codes allow: a cleanup step that accepts 404 must not pass
   * against an endpoint that does not exist.
   */
  unserved?: (answer: { status: number; body: string }) => string | undefined;
}

export type StepOutcome = 'pass' | 'fail' | 'skipped' | 'waited';

export interface StepResult {
  index: number;
  description?: string;
  outcome: StepOutcome;
  /** Why it failed (fail) or why the fixture skips it (skipped). */
  reason?: string;
  /** The request as sent, `METHOD /path?query`. */
  sent?: string;
}

/**
 * Runs a fixture's steps in order and judges each, as DataHub's runner does, except that a failed
 * step does not stop the file: every step gets its own verdict (a later step may then fail only
 * because an earlier one did; its reason says what it saw).
 */
export async function runFixture(steps: readonly FixtureStep[], options: RunOptions): Promise<StepResult[]> {
  const sleep = options.sleep ?? ((s: number) => new Promise<void>((resolve) => setTimeout(resolve, s * 1000)));
  const results: StepResult[] = [];
  for (const step of steps) {
    if (step.kind === 'wait') {
      await sleep(step.seconds);
      results.push({ index: step.index, description: step.description, outcome: 'waited' });
      continue;
    }
    if (step.skip !== undefined) {
      results.push({ index: step.index, description: step.description, outcome: 'skipped', reason: step.skip });
      continue;
    }
    const sent = buildRequest(step.request, options.token);
    const answer = await options.transport(sent);
    const unserved = options.unserved?.(answer);
    const failure = unserved !== undefined ? `route not served: ${unserved}` : judge(answer, step.response);
    results.push({
      index: step.index,
      description: step.description,
      outcome: failure === undefined ? 'pass' : 'fail',
      sent: `${sent.method} ${sent.url}`,
      ...(failure !== undefined ? { reason: failure } : {}),
    });
  }
  return results;
}

function judge(answer: { status: number; body: string }, expected: Extract<FixtureStep, { kind: 'request' }>['response']): string | undefined {
  if (!expected.statusCodes.includes(answer.status)) {
    return `status ${answer.status} not in [${expected.statusCodes.join(', ')}]; body: ${excerpt(answer.body)}`;
  }
  if (expected.text !== undefined) {
    return answer.body === expected.text ? undefined : `body differs: ${excerpt(answer.body)}, expected ${excerpt(expected.text)}`;
  }
  if (expected.json === undefined) return undefined;
  let actual: LexicalJson;
  try {
    actual = parseLexical(answer.body);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return `body is not JSON (${error.message}): ${excerpt(answer.body)}`;
    throw error;
  }
  const differences = compareJson(actual, expected.json, expected.excludeRegexPaths);
  return differences.length === 0 ? undefined : `body differs: ${differences.join('; ')}`;
}

function excerpt(body: string): string {
  if (body.length === 0) return '(empty)';
  return body.length > 500 ? `${body.slice(0, 500)}…` : body;
}

/** The request Python's requests library would send for these arguments. */
export function buildRequest(request: FixtureRequest, token?: string): { method: string; url: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'python-requests/2.32.3', ...lowerCased(request.headers ?? {}) };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  let url = request.url;
  const query = request.params ? encodeParams(request.params) : '';
  if (query.length > 0) {
    const hash = url.indexOf('#');
    const base = hash >= 0 ? url.slice(0, hash) : url;
    url = base + (base.includes('?') ? (base.endsWith('?') ? '' : '&') : '?') + query;
  }
  url = requoteUri(url);
  // json=None sends no body at all in requests.
  if (request.json === undefined || request.json === null) return { method: request.method.toUpperCase(), url, headers };
  headers['content-type'] ??= 'application/json';
  return { method: request.method.toUpperCase(), url, headers, body: stringifyLexical(request.json) };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** `urlencode(params, doseq=True)`: lists repeat the key, None is left out, the rest is `str(value)`. */
export function encodeParams(params: Record<string, LexicalJson>): string {
  const pairs: string[] = [];
  for (const [key, raw] of Object.entries(params)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (value === null) continue;
      pairs.push(`${quotePlus(key)}=${quotePlus(pythonStr(value))}`);
    }
  }
  return pairs.join('&');
}

/** Python's `str()` of a JSON value, as requests puts it in a query string. */
function pythonStr(value: LexicalJson): string {
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value instanceof JsonNumber) {
    if (value.kind === 'int') return value.canonical();
    const n = Number(value.lexeme);
    if (Number.isInteger(n) && Math.abs(n) < 1e16) return n.toFixed(1);
    return String(n);
  }
  if (isObject(value) || Array.isArray(value)) throw new Error(`a query parameter cannot be ${stringifyLexical(value)}`);
  return 'None';
}

const UNRESERVED = /[A-Za-z0-9_.~-]/;

/** `urllib.parse.quote_plus(text, safe='')`. */
export function quotePlus(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** requests' `requote_uri`: unreserved characters unescaped, characters a URI cannot hold escaped. */
export function requoteUri(uri: string): string {
  const unquoted = uri.replace(/%([0-9A-Fa-f]{2})/g, (match, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : match;
  });
  let out = '';
  for (const ch of unquoted) {
    if (/[A-Za-z0-9_.~\-!#$%&'()*+,/:;=?@[\]]/.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
