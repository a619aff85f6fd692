/** A JSON object (not null, not an array): what request bodies and aspect values are checked to be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether two JSON values are equal as JSON: the same members whatever their order, members set
 * to undefined counting as absent. The write path asks it for every write, and for plain JSON it
 * is several times faster than util.isDeepStrictEqual.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue;
    if (!Object.hasOwn(y, key) || !jsonEqual(x[key], y[key])) return false;
    members++;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) members--;
  return members === 0;
}

/**
 * Whether a parsed JSON value nests arrays and objects more than `max` levels deep. The recursion
 * stops `max` levels down, so a body of a million brackets is measured in `max` frames.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, max - 1)) return true;
  } else {
    for (const key of Object.keys(value)) if (nestsDeeperThan((value as Record<string, unknown>)[key], max - 1)) return true;
  }
  return false;
}

/**
 * The same question, asked in steps: a generator that yields after every 1,000 values visited
 * (without recursion, with a stack of its own), and returns the answer. A large body is checked
 * this way between turns of the event loop.
 */
export function* nestsDeeperThanSteps(value: unknown, max: number): Generator<void, boolean> {
  const stack: Array<{ children: unknown[]; next: number }> = [];
  /** Opens a container; true when it is one level too many. */
  const open = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (stack.length === max) return true;
    stack.push({ children: Array.isArray(v) ? v : Object.values(v), next: 0 });
    return false;
  };
  if (open(value)) return true;
  let visited = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next >= top.children.length) {
      stack.pop();
      continue;
    }
    if (open(top.children[top.next++])) return true;
    if (++visited % 1000 === 0) yield;
  }
  return false;
}

/**
 * The JSON text of values being written. The write path measures each value it writes (its
 * per-request budget), the stores then write that same text, and a change-log event's previous
 * value is an earlier write's: each is serialised once. Written values are never mutated (the
 * latest-value cache shares them); entries go when their values are collected.
 */
const writtenText = new WeakMap<object, string>();

/** The JSON text of a value that is being written, serialised once per value. */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = writtenText.get(value);
  if (text === undefined) writtenText.set(value, (text = JSON.stringify(value)));
  return text;
}

/** The length of the JSON text jsonText() made for a value (0 if it made none). */
export function writtenLength(value: unknown): number {
  return typeof value === 'object' && value !== null ? (writtenText.get(value)?.length ?? 0) : String(value).length;
}

/** A UTF-16 surrogate without its other half: text that has no UTF-8 form (it would be stored as U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * Where the first string (a member name or a value) holding a lone surrogate is, as a path such
 * as `[0].tags[2].tag`; undefined when there is none. Callers bound the depth first (nestsDeeperThan).
 */
export function loneSurrogateAt(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? at || '(the body)' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogateAt(value[i], `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, member] of Object.entries(value)) {
    const path = `${at}${at ? '.' : ''}${hasLoneSurrogate(key) ? JSON.stringify(key) : key}`;
    if (hasLoneSurrogate(key)) return path;
    const found = loneSurrogateAt(member, path);
    if (found !== undefined) return found;
  }
  return undefined;
}
