import { readFileSync } from 'node:fs';
import { FixtureError, parseFixture, type FixtureStep } from '../smoke/fixture.js';
import { isObject, JsonNumber, parseLexical, type LexicalJson } from '../smoke/lexical-json.js';

/**
 * urnbase's own compatibility files: DataHub's smoke fixture format (see ../smoke/fixture.ts),
 * held to more than DataHub's runner asks, so that no step can pass without checking its answer:
 * - every step is a request with a `response` naming exactly one status code;
 * - and the whole body: `json` (compared exactly, lists as multisets) or `text` (`""`: no body);
 * - `exclude_regex_paths` may only leave out values that change from run to run (VOLATILE);
 * - no `wait` and no `skip`.
 */

/** What a step may leave out of the comparison: times, scroll cursors, what a server generates. */
export const VOLATILE = new Set(['scrollId', 'time', 'lastObserved']);

/** `placeholders`: `{name}` → value in every string (`{urnbase_version}`: what /config names). */
export function loadOwnFixture(path: string, placeholders: Record<string, string> = {}): FixtureStep[] {
  const text = readFileSync(path, 'utf8');
  checkOwnFixture(parseLexical(text));
  return parseFixture(text, placeholders, { own: true });
}

/** Throws FixtureError naming the first step that breaks the rules above. */
export function checkOwnFixture(doc: LexicalJson): void {
  if (!Array.isArray(doc) || doc.length === 0) throw new FixtureError('a compatibility file is a non-empty list of steps');
  doc.forEach((raw, index) => {
    const where = `step ${index}`;
    if (!isObject(raw) || !isObject(raw.request ?? null)) throw new FixtureError(`${where}: a step is an object with a "request" object`);
    if ('skip' in raw) throw new FixtureError(`${where}: no step of urnbase's own suite is skipped`);
    const request = raw.request as { [key: string]: LexicalJson };
    if ('wait' in request) throw new FixtureError(`${where}: urnbase answers once committed, so its own suite never waits`);
    if (typeof request.description !== 'string' || request.description.length === 0) throw new FixtureError(`${where}: say what the step checks in request.description`);
    const response = raw.response;
    if (!isObject(response ?? null)) throw new FixtureError(`${where}: every step asserts its answer (response)`);
    const r = response as { [key: string]: LexicalJson };
    const codes = r.status_codes;
    if (!Array.isArray(codes) || codes.length !== 1 || !(codes[0] instanceof JsonNumber)) {
      throw new FixtureError(`${where}: response.status_codes names exactly one status`);
    }
    if ((r.json === undefined) === (r.text === undefined)) throw new FixtureError(`${where}: the response asserts the body, as json or as text`);
    for (const pattern of (r.exclude_regex_paths ?? []) as LexicalJson[]) {
      const last = typeof pattern === 'string' ? /'([^']+)'\\\]\$?$/.exec(pattern)?.[1] : undefined;
      if (last === undefined || !VOLATILE.has(last)) {
        throw new FixtureError(`${where}: exclude_regex_paths may leave out only ${[...VOLATILE].join(', ')}; not ${JSON.stringify(pattern)}`);
      }
    }
  });
}
