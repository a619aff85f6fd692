import { readFileSync } from 'node:fs';
import { isObject, JsonNumber, parseLexical, type LexicalJson } from './lexical-json.js';

/**
 * DataHub's smoke fixture format (smoke-test/tests/openapi/*\/*.json): a list of steps run in
 * order. A step is `{request, response?, skip?}`:
 * - `request.url` is appended to the server's base URL; `method` defaults to post; `description`
 *   is a label; every other key is a keyword argument of Python's requests (`params`, `json`, and
 *   here also `headers`); `{"wait": N}` instead sleeps N seconds (`true` is 1, as Python's
 *   time.sleep reads it).
 * - `response.status_codes` lists the allowed statuses (default 200, 201, 202, 204);
 *   `response.json` is the expected body; `response.exclude_regex_paths` the paths not compared.
 * - `skip` (a reason) marks a step DataHub itself does not run.
 * Any other key is refused when the file loads, so a fixture using something this runner does not
 * implement fails loudly instead of passing unchecked.
 */
export interface FixtureRequest {
  url: string;
  method: string;
  description?: string;
  params?: Record<string, LexicalJson>;
  json?: LexicalJson;
  headers?: Record<string, string>;
}

export interface FixtureResponse {
  statusCodes: number[];
  json?: LexicalJson;
  /** The exact body as text (`""`: none); urnbase's own suite only (see ParseOptions.own). */
  text?: string;
  excludeRegexPaths: string[];
}

export interface ParseOptions {
  /** `{name}` → its value in every string of the file, as newer DataHub fixtures use `{unique_id}`. */
  placeholders?: Record<string, string>;
  /**
   * urnbase's own suite (test/compat/): `response.text` is read as well, an exact body for answers
   * that are not JSON (a HEAD's or a DELETE's empty one). DataHub's runner knows no such key.
   */
  own?: boolean;
}

export type FixtureStep =
  | { index: number; kind: 'wait'; description?: string; seconds: number }
  | { index: number; kind: 'request'; description?: string; request: FixtureRequest; response: FixtureResponse; skip?: string };

export const DEFAULT_STATUS_CODES = [200, 201, 202, 204];

const REQUEST_KEYS = new Set(['url', 'method', 'description', 'params', 'json', 'headers', 'wait']);
const RESPONSE_KEYS = new Set(['status_codes', 'json', 'exclude_regex_paths']);
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

export class FixtureError extends Error {}

export function loadFixture(path: string, placeholders: Record<string, string> = {}, options: Omit<ParseOptions, 'placeholders'> = {}): FixtureStep[] {
  return parseFixture(readFileSync(path, 'utf8'), placeholders, options);
}

/**
 * Parses a fixture file. `placeholders` replace `{name}` in every string of it (URLs, bodies and
 * expected bodies alike), as newer DataHub fixtures use `{unique_id}`.
 */
export function parseFixture(text: string, placeholders: Record<string, string> = {}, options: Omit<ParseOptions, 'placeholders'> = {}): FixtureStep[] {
  const doc = substitute(parseLexical(text), placeholders);
  if (!Array.isArray(doc)) throw new FixtureError('a fixture file is a list of steps');
  return doc.map((raw, index) => step(raw, index, options.own ?? false));
}

function substitute(value: LexicalJson, placeholders: Record<string, string>): LexicalJson {
  if (typeof value === 'string') {
    let out = value;
    for (const [name, replacement] of Object.entries(placeholders)) out = out.replaceAll(`{${name}}`, replacement);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, placeholders));
  if (isObject(value)) {
    const out: { [key: string]: LexicalJson } = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, substitute(k, placeholders) as string, { value: substitute(v, placeholders), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

function step(raw: LexicalJson, index: number, own: boolean): FixtureStep {
  const where = `step ${index}`;
  if (!isObject(raw) || !isObject(raw.request ?? null)) throw new FixtureError(`${where}: a step is an object with a "request" object`);
  for (const key of Object.keys(raw)) {
    if (!['request', 'response', 'skip'].includes(key)) throw new FixtureError(`${where}: unknown step key "${key}"`);
  }
  const request = raw.request as { [key: string]: LexicalJson };
  for (const key of Object.keys(request)) {
    if (!REQUEST_KEYS.has(key)) throw new FixtureError(`${where}: request key "${key}" is not supported by this runner`);
  }
  const description = optionalString(request.description, `${where}: description`);
  if (request.wait !== undefined) {
    const wait = request.wait;
    const seconds = wait === true ? 1 : wait === false ? 0 : wait instanceof JsonNumber ? Number(wait.lexeme) : NaN;
    if (!Number.isFinite(seconds) || seconds < 0) throw new FixtureError(`${where}: wait must be a number of seconds`);
    return { index, kind: 'wait', description, seconds };
  }
  if (typeof request.url !== 'string' || !request.url.startsWith('/')) throw new FixtureError(`${where}: request.url must be a path starting with /`);
  const method = request.method === undefined ? 'post' : request.method;
  if (typeof method !== 'string' || !METHODS.has(method.toLowerCase())) throw new FixtureError(`${where}: unknown method ${JSON.stringify(method)}`);
  if (request.params !== undefined && !isObject(request.params)) throw new FixtureError(`${where}: params must be an object`);
  if (request.headers !== undefined && (!isObject(request.headers) || Object.values(request.headers).some((v) => typeof v !== 'string'))) {
    throw new FixtureError(`${where}: headers must map names to strings`);
  }
  const skip = raw.skip;
  if (skip !== undefined && typeof skip !== 'string') throw new FixtureError(`${where}: skip must be a reason (a string)`);
  return {
    index,
    kind: 'request',
    description,
    request: {
      url: request.url,
      method: method.toLowerCase(),
      description,
      params: request.params as Record<string, LexicalJson> | undefined,
      json: request.json,
      headers: request.headers as Record<string, string> | undefined,
    },
    response: response(raw.response, where, own),
    ...(skip !== undefined ? { skip } : {}),
  };
}

function response(raw: LexicalJson | undefined, where: string, own: boolean): FixtureResponse {
  if (raw === undefined) return { statusCodes: DEFAULT_STATUS_CODES, excludeRegexPaths: [] };
  if (!isObject(raw)) throw new FixtureError(`${where}: response must be an object`);
  // DataHub's runner reads only these keys; any other one (aspects.json has "value" beside them)
  // is not checked there either. Such a response checks the status alone, as DataHub's does.
  const codes = raw.status_codes;
  let statusCodes = DEFAULT_STATUS_CODES;
  if (codes !== undefined) {
    if (!Array.isArray(codes) || codes.some((c) => !(c instanceof JsonNumber) || c.kind !== 'int')) {
      throw new FixtureError(`${where}: status_codes must be a list of integers`);
    }
    statusCodes = codes.map((c) => Number((c as JsonNumber).lexeme));
  }
  const exclude = raw.exclude_regex_paths ?? [];
  if (!Array.isArray(exclude) || exclude.some((p) => typeof p !== 'string')) throw new FixtureError(`${where}: exclude_regex_paths must be a list of strings`);
  const text = own ? raw.text : undefined;
  if (text !== undefined && typeof text !== 'string') throw new FixtureError(`${where}: response.text must be a string`);
  return {
    statusCodes,
    excludeRegexPaths: exclude as string[],
    ...(raw.json !== undefined ? { json: raw.json } : {}),
    ...(text !== undefined ? { text } : {}),
  };
}

/** Keys of a response object the runner does not read (reported, since they check nothing). */
export function ignoredResponseKeys(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const doc = parseLexical(text);
  if (!Array.isArray(doc)) return out;
  doc.forEach((raw, index) => {
    if (isObject(raw) && isObject(raw.response ?? null)) {
      const extra = Object.keys(raw.response as object).filter((k) => !RESPONSE_KEYS.has(k));
      if (extra.length > 0) out.set(index, extra);
    }
  });
  return out;
}

function optionalString(value: LexicalJson | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new FixtureError(`${what} must be a string`);
  return value;
}
