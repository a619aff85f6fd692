import { isRecord, jsonEqual } from '../json.js';
import type { PatchOperation } from './model.js';

/** Above this many cells the longest-common-subsequence table of two arrays is not built (memory). */
const LCS_CELLS = 250_000;

/**
 * The RFC 6902 patch from one aspect value to the next (`raw=true`), as DataHub's timeline
 * computes it (JSON-P's diff): objects member by member (removals and changes in the old value's
 * order, then additions), arrays by their longest common subsequence, the operations of an array
 * from its end to its start so that each index is right when applied in order.
 */
export function rawDiff(source: unknown, target: unknown): PatchOperation[] {
  const operations: PatchOperation[] = [];
  diff('', source, target, operations);
  return operations;
}

function diff(path: string, source: unknown, target: unknown, out: PatchOperation[]): void {
  if (jsonEqual(source, target)) return;
  if (isRecord(source) && isRecord(target)) {
    for (const key of Object.keys(source)) {
      if (Object.hasOwn(target, key)) diff(`${path}/${pointer(key)}`, source[key], target[key], out);
      else out.push({ op: 'remove', path: `${path}/${pointer(key)}` });
    }
    for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) out.push({ op: 'add', path: `${path}/${pointer(key)}`, value: target[key] });
  } else if (Array.isArray(source) && Array.isArray(target)) {
    diffArray(path, source, target, out);
  } else {
    out.push({ op: 'replace', path, value: target });
  }
}

function diffArray(path: string, source: unknown[], target: unknown[], out: PatchOperation[]): void {
  // The common head and tail need no table; only what lies between is aligned.
  let head = 0;
  while (head < source.length && head < target.length && jsonEqual(source[head], target[head])) head++;
  let tail = 0;
  while (tail < source.length - head && tail < target.length - head && jsonEqual(source[source.length - 1 - tail], target[target.length - 1 - tail])) tail++;
  const s = source.slice(head, source.length - tail);
  const t = target.slice(head, target.length - tail);
  const at = (index: number) => `${path}/${head + index}`;
  if (s.length * t.length > LCS_CELLS) {
    // Too large to align: the old middle goes, the new one comes.
    for (let i = s.length - 1; i >= 0; i--) out.push({ op: 'remove', path: at(i) });
    for (let j = 0; j < t.length; j++) out.push({ op: 'add', path: at(j), value: t[j] });
    return;
  }
  // lengths[i][j]: the longest common subsequence of s[0..i) and t[0..j).
  const lengths = Array.from({ length: s.length + 1 }, () => new Uint32Array(t.length + 1));
  const same = (i: number, j: number) => jsonEqual(s[i], t[j]);
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      lengths[i][j] = same(i - 1, j - 1) ? lengths[i - 1][j - 1] + 1 : Math.max(lengths[i - 1][j], lengths[i][j - 1]);
    }
  }
  // Walked back from the end, the array is s[0..i) followed by t[j..): an insertion goes at i.
  let i = s.length;
  let j = t.length;
  while (i > 0 || j > 0) {
    if (i === 0) {
      j--;
      out.push({ op: 'add', path: at(0), value: t[j] });
    } else if (j === 0) {
      i--;
      out.push({ op: 'remove', path: at(i) });
    } else if (same(i - 1, j - 1)) {
      i--;
      j--;
    } else if (lengths[i][j - 1] > lengths[i - 1][j]) {
      j--;
      out.push({ op: 'add', path: at(i), value: t[j] });
    } else if (lengths[i][j - 1] < lengths[i - 1][j]) {
      i--;
      out.push({ op: 'remove', path: at(i) });
    } else {
      i--;
      j--;
      diff(at(i), s[i], t[j], out);
    }
  }
}

/** A JSON Pointer reference token (RFC 6901): `~` and `/` escaped. */
function pointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
