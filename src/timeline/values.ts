import { isRecord } from '../json.js';

/**
 * Small readers of aspect values. Stored values passed their JSON Schema when written, but the
 * timeline reads every version, old ones too (an import keeps values as they were): a member of
 * an unexpected shape reads as absent rather than failing the whole answer.
 */

export function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function text(value: unknown, key: string): string | undefined {
  const member = field(value, key);
  return typeof member === 'string' ? member : undefined;
}

export function records(value: unknown, key: string): Array<Record<string, unknown>> {
  const member = field(value, key);
  return Array.isArray(member) ? member.filter(isRecord) : [];
}

export function strings(value: unknown, key: string): string[] {
  const member = field(value, key);
  return Array.isArray(member) ? member.filter((m): m is string => typeof m === 'string') : [];
}

/** What follows `urn:li:<type>:`: what DataHub's descriptions call a tag's or term's id. */
export function urnId(urn: string): string {
  const match = /^urn:li:[^:]+:/.exec(urn);
  return match ? urn.slice(match[0].length) : urn;
}

/**
 * Two lists paired by a key, in key order (UTF-16 code units, as Java compares strings): what is
 * only in `base` was removed, only in `target` added, in both kept. A key repeated in one list
 * pairs with its repeats in the other one by one, as DataHub's sorted merges do.
 */
export function mergeByKey<T>(base: readonly T[], target: readonly T[], key: (item: T) => string): Array<{ base?: T; target?: T }> {
  const order = (a: T, b: T) => compare(key(a), key(b));
  const b = [...base].sort(order);
  const t = [...target].sort(order);
  const pairs: Array<{ base?: T; target?: T }> = [];
  let i = 0;
  let j = 0;
  while (i < b.length && j < t.length) {
    const c = compare(key(b[i]), key(t[j]));
    if (c === 0) pairs.push({ base: b[i++], target: t[j++] });
    else if (c < 0) pairs.push({ base: b[i++] });
    else pairs.push({ target: t[j++] });
  }
  while (i < b.length) pairs.push({ base: b[i++] });
  while (j < t.length) pairs.push({ target: t[j++] });
  return pairs;
}

/** Java's String.compareTo order (JavaScript compares strings by UTF-16 code units too). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
