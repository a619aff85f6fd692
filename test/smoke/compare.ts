import { isObject, JsonNumber, stringifyLexical, type LexicalJson } from './lexical-json.js';

/**
 * The body check of DataHub's smoke runner, `DeepDiff(actual, expected, exclude_regex_paths=…,
 * ignore_order=True)` must be empty, written anew for lexical JSON:
 * - exact structure: a key only one side has is a difference, as is any value or type change
 *   (Python's types: an int is not a float, `"1"` is not `1`, `true` is not `1`);
 * - lists compare as multisets, recursively. (Stricter than DeepDiff's default, which ignores how
 *   often an item repeats when ignore_order is on: here `[1, 1]` is not `[1]`.)
 * - `exclude_regex_paths` are Python regexes searched in DeepDiff's path notation,
 *   `root['entities'][0]['scrollId']`: a matching path is not compared, on either side. A list
 *   item's path carries its index in its own list, as DeepDiff hashes each side's items.
 */
export function compareJson(actual: LexicalJson, expected: LexicalJson, excludeRegexPaths: readonly string[] = []): string[] {
  const excluded = excluder(excludeRegexPaths);
  return diff(actual, expected, 'root', excluded);
}

/** DeepDiff's notation for a dictionary key: Python's repr of the string. */
export function keyPath(parent: string, key: string): string {
  return `${parent}[${pythonRepr(key)}]`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** Python's `repr(str)`: single quotes unless the text has one and no double quote. */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Compiles DeepDiff's exclude regexes (Python syntax) to a test on a path; `re.search` semantics. */
export function excluder(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.map(pythonRegex);
  return (path) => regexes.some((r) => r.test(path));
}

function pythonRegex(pattern: string): RegExp {
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const f of inline[1]!) {
      if (f === 'i' || f === 'm' || f === 's') flags += f;
      else if (f !== 'u') throw new Error(`exclude_regex_paths: the inline flag (?${f}) has no JavaScript equivalent: ${pattern}`);
    }
  }
  source = source.replaceAll('(?P<', '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  if (/\\[AZ]/.test(source)) throw new Error(`exclude_regex_paths: \\A and \\Z have no JavaScript equivalent: ${pattern}`);
  return new RegExp(source, flags);
}

type Kind = 'NoneType' | 'bool' | 'str' | 'int' | 'float' | 'dict' | 'list';

function kindOf(value: LexicalJson): Kind {
  if (value === null) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'str';
  if (value instanceof JsonNumber) return value.kind;
  return Array.isArray(value) ? 'list' : 'dict';
}

/** A text equal for two values exactly when they compare equal (exclusions applied at their paths). */
function canonical(value: LexicalJson, path: string, excluded: (path: string) => boolean): string {
  if (value === null) return 'n';
  if (typeof value === 'boolean') return value ? 'b:1' : 'b:0';
  if (typeof value === 'string') return `s:${JSON.stringify(value)}`;
  if (value instanceof JsonNumber) return `${value.kind === 'int' ? 'i' : 'f'}:${value.canonical()}`;
  if (Array.isArray(value)) {
    const items: string[] = [];
    value.forEach((item, i) => {
      const p = indexPath(path, i);
      if (!excluded(p)) items.push(canonical(item, p, excluded));
    });
    return `[${items.sort().join(',')}]`;
  }
  const entries: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = keyPath(path, k);
    if (!excluded(p)) entries.push(`${JSON.stringify(k)}:${canonical(v, p, excluded)}`);
  }
  return `{${entries.sort().join(',')}}`;
}

function shown(value: LexicalJson): string {
  const text = stringifyLexical(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function diff(actual: LexicalJson, expected: LexicalJson, path: string, excluded: (path: string) => boolean): string[] {
  if (excluded(path)) return [];
  const kind = kindOf(actual);
  if (kind !== kindOf(expected)) {
    return [`${path}: type ${kind} ${shown(actual)}, expected ${kindOf(expected)} ${shown(expected)}`];
  }
  if (isObject(actual) && isObject(expected)) {
    const out: string[] = [];
    for (const key of Object.keys(actual)) {
      const p = keyPath(path, key);
      if (excluded(p)) continue;
      if (!Object.hasOwn(expected, key)) out.push(`${p}: unexpected key, value ${shown(actual[key]!)}`);
      else out.push(...diff(actual[key]!, expected[key]!, p, excluded));
    }
    for (const key of Object.keys(expected)) {
      const p = keyPath(path, key);
      if (!excluded(p) && !Object.hasOwn(actual, key)) out.push(`${p}: missing key, expected ${shown(expected[key]!)}`);
    }
    return out;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) return listDiff(actual, expected, path, excluded);
  if (canonical(actual, path, excluded) === canonical(expected, path, excluded)) return [];
  return [`${path}: ${shown(actual)}, expected ${shown(expected)}`];
}

/** Multiset comparison: every item must be matched by an equal one, as often as it occurs. */
function listDiff(actual: LexicalJson[], expected: LexicalJson[], path: string, excluded: (path: string) => boolean): string[] {
  const pool = new Map<string, number[]>();
  expected.forEach((item, j) => {
    const p = indexPath(path, j);
    if (excluded(p)) return;
    const key = canonical(item, p, excluded);
    pool.set(key, [...(pool.get(key) ?? []), j]);
  });
  const unmatched: number[] = [];
  actual.forEach((item, i) => {
    const p = indexPath(path, i);
    if (excluded(p)) return;
    const same = pool.get(canonical(item, p, excluded));
    if (same && same.length > 0) same.shift();
    else unmatched.push(i);
  });
  const missing = [...pool.values()].flat().sort((a, b) => a - b);
  if (unmatched.length === 1 && missing.length === 1) {
    // One item differs: say where inside it (DeepDiff pairs such items too).
    const inner = diff(actual[unmatched[0]!]!, expected[missing[0]!]!, indexPath(path, unmatched[0]!), excluded);
    if (inner.length > 0) return inner;
  }
  return [
    ...unmatched.map((i) => `${indexPath(path, i)}: unexpected item ${shown(actual[i]!)}`),
    ...missing.map((j) => `${path}: missing item (expected index ${j}) ${shown(expected[j]!)}`),
  ];
}
