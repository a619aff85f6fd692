import { isRecord } from '../json.js';
import { Pacer } from '../pace.js';
import type { EntitySpec } from '../registry/registry.js';
import type { AspectIndex, IndexWrite, TextColumn } from '../store/search-types.js';
import { isUrn, parseUrn } from '../urn/urn.js';
import type { SearchFields } from './fields.js';

/** The value types (`urn:li:dataType:datahub.number`, …) of structured properties, by property URN. */
export type ValueTypes = (propertyUrns: readonly string[]) => Promise<Map<string, string | undefined>>;

const DATE_TYPE = 'urn:li:dataType:datahub.date';
/** The keyword field that says which text-only fields an entity has: `description@datasetProperties`. */
export const HAS = '_has';

/**
 * What an aspect contributes to its entity's search entries. Each searchable field has its source
 * aspect (search.json); an entity's key aspect adds its words to the full text, so an entity is
 * found by the words of its URN; structured-property values are typed by their definitions.
 */
export class SearchDocuments {
  constructor(private readonly fields: SearchFields) {}

  /** Whether writes of this aspect may change the index at all. */
  indexes(entity: EntitySpec, aspect: string): boolean {
    return aspect === entity.keyAspect.name || aspect === 'structuredProperties' || this.fields.sourcesOf(aspect).length > 0;
  }

  /**
   * Whether an aspect value gives more than `cap` index values (its indexed paths' values, and its
   * structured-property values), counted without making them and no further than the cap: the
   * write path refuses such a value before validating or indexing it, at a cost bounded by the cap.
   */
  exceeds(aspect: string, value: unknown, cap: number): boolean {
    if (value === undefined || value === null || typeof value !== 'object') return false;
    let n = 0;
    if (aspect === 'structuredProperties') {
      const assignments = (value as { properties?: unknown }).properties;
      if (Array.isArray(assignments)) {
        for (const a of assignments) {
          n += 1 + (Array.isArray((a as { values?: unknown })?.values) ? (a as { values: unknown[] }).values.length : 0);
          if (n > cap) return true;
        }
      }
    }
    for (const { path } of this.fields.sourcesOf(aspect)) {
      n += countAt(value, path, 0, cap - n);
      if (n > cap) return true;
    }
    return false;
  }

  async entries(entity: EntitySpec, aspect: string, value: unknown, valueTypes: ValueTypes): Promise<AspectIndex> {
    const index = new Entries();
    if (value === undefined || value === null) return index.done();
    if (aspect === entity.keyAspect.name) {
      for (const v of Object.values(value as Record<string, unknown>)) index.words('keywords', v);
    } else if (aspect === 'structuredProperties') {
      await propertyEntries(value, valueTypes, index);
    }
    // An aspect may hold a great many values (200,000 tags were tried): share the event loop.
    const pacer = new Pacer();
    for (const { field, path, fullText } of this.fields.sourcesOf(aspect)) {
      for (const v of valuesAt(value, path)) {
        await pacer.pace();
        switch (field.type) {
          case 'text':
            if (typeof v !== 'string' || v.trim() === '') break;
            index.text(field.column, v);
            // A text-only field may have several source aspects: each marks its own presence.
            index.term(field.keyword ? field.name : HAS, field.keyword ? v.toLowerCase() : `${field.name}@${aspect}`);
            break;
          case 'urn':
            if (typeof v !== 'string') break;
            index.term(field.name, v);
            if (fullText) index.words('keywords', v);
            break;
          case 'keyword':
            if (typeof v !== 'string') break;
            index.term(field.name, v);
            if (fullText) index.text('keywords', v);
            break;
          case 'boolean':
            if (typeof v === 'boolean') index.term(field.name, String(v));
            break;
        }
      }
    }
    return index.done();
  }

  /** The write that turns an aspect's old entries into its new ones; undefined when they are the same. */
  async write(urn: string, entity: EntitySpec, aspect: string, before: AspectIndex, after: AspectIndex): Promise<IndexWrite | undefined> {
    const pacer = new Pacer();
    const [removeTerms, addTerms] = await difference(before.terms, after.terms, pacer);
    const [removeNumbers, addNumbers] = await difference(before.numbers, after.numbers, pacer);
    const beforeText = JSON.stringify(before.text ?? null);
    const afterText = JSON.stringify(after.text ?? null);
    const text = beforeText === afterText ? undefined : (after.text ?? null);
    if (removeTerms.length + addTerms.length + removeNumbers.length + addNumbers.length === 0 && text === undefined) return undefined;
    return { urn, aspect, keyAspect: entity.keyAspect.name, removeTerms, addTerms, removeNumbers, addNumbers, ...(text === undefined ? {} : { text }) };
  }
}

/** Strings go in as they are, numbers as numbers, dates also as epoch millis (to compare as instants). */
async function propertyEntries(value: unknown, valueTypes: ValueTypes, index: Entries): Promise<void> {
  const assignments = (value as { properties?: Array<{ propertyUrn?: unknown; values?: unknown }> }).properties;
  if (!Array.isArray(assignments)) return;
  const types = await valueTypes(assignments.map((a) => a.propertyUrn).filter((u): u is string => typeof u === 'string'));
  for (const { propertyUrn, values } of assignments) {
    if (typeof propertyUrn !== 'string' || !Array.isArray(values)) continue;
    for (const v of values as Array<{ string?: unknown; double?: unknown }>) {
      if (typeof v?.double === 'number') index.number(propertyUrn, v.double);
      if (typeof v?.string !== 'string') continue;
      index.term(propertyUrn, v.string);
      if (types.get(propertyUrn) === DATE_TYPE) {
        const time = Date.parse(v.string.length === 10 ? `${v.string}T00:00:00Z` : v.string);
        if (!Number.isNaN(time)) index.number(propertyUrn, time);
      }
    }
  }
}

/** How many values valuesAt would give, counting no further than just past `cap`. */
function countAt(value: unknown, path: readonly string[], at: number, cap: number): number {
  if (at === path.length) return 1;
  if (!isRecord(value) || value[path[at]] === undefined) return 0;
  const found = value[path[at]];
  if (!Array.isArray(found)) return countAt(found, path, at + 1, cap);
  let n = 0;
  for (const item of found) {
    for (const inner of Array.isArray(item) ? item : [item]) {
      n += countAt(inner, path, at + 1, cap - n);
      if (n > cap) return n;
    }
  }
  return n;
}

/** The values at a path, arrays flattened at every step. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  let values = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of values) {
      if (!isRecord(v) || v[step] === undefined) continue;
      const found = v[step];
      // Arrays flattened one level, by loops: push(...found) overflowed the stack at 200,000 tags,
      // and found.flat() took 100 ms of them.
      if (!Array.isArray(found)) next.push(found);
      else
        for (const item of found) {
          if (Array.isArray(item)) for (const inner of item) next.push(inner);
          else next.push(item);
        }
    }
    values = next;
  }
  return values;
}

/**
 * The most text an aspect gives one column of its entity's full-text document. Full-text indexing
 * is one statement per entity that cannot yield (FTS5 took 470 ms for the 2.4 MB of 200,000 tags'
 * words, and a rewrite indexes the old text again to remove it); words past the cap are not found
 * by free text, while a field's filter (tags:…, owners:…) finds every value.
 */
export const MAX_COLUMN_TEXT = 128 * 1024;

/** A column's text cut at the last line or space before MAX_COLUMN_TEXT, when longer. */
function capped(text: string): string {
  if (text.length <= MAX_COLUMN_TEXT) return text;
  const cut = Math.max(text.lastIndexOf('\n', MAX_COLUMN_TEXT), text.lastIndexOf(' ', MAX_COLUMN_TEXT));
  return text.slice(0, cut > 0 ? cut : MAX_COLUMN_TEXT);
}

/** Collects an aspect's entries, each once. */
class Entries {
  private readonly terms = new Map<string, [string, string]>();
  private readonly numbers = new Map<string, [string, number]>();
  private readonly columns = new Map<TextColumn, string[]>();

  term(field: string, value: string): void {
    this.terms.set(`${field}\u0000${value}`, [field, value]);
  }

  number(field: string, value: number): void {
    if (Number.isFinite(value)) this.numbers.set(`${field}\u0000${value}`, [field, value]);
  }

  text(column: TextColumn, text: string): void {
    if (text.trim() === '') return;
    const list = this.columns.get(column);
    if (list) list.push(text);
    else this.columns.set(column, [text]);
  }

  /** The words of a value: a URN's id (the words of `urn:li:tag:pii` are `pii`), or the text itself. */
  words(column: TextColumn, value: unknown): void {
    if (typeof value !== 'string') return;
    this.text(column, value.startsWith('urn:li:') && isUrn(value) ? parseUrn(value).id : value);
  }

  done(): AspectIndex {
    const text = this.columns.size === 0 ? undefined : Object.fromEntries([...this.columns].map(([c, parts]) => [c, capped(parts.join('\n'))]));
    return { terms: [...this.terms.values()], numbers: [...this.numbers.values()], ...(text ? { text } : {}) };
  }
}

/** The entries only in `before`, and those only in `after`: in slices, an aspect may hold 200,000 values. */
async function difference<T>(before: ReadonlyArray<[string, T]>, after: ReadonlyArray<[string, T]>, pacer: Pacer): Promise<[Array<[string, T]>, Array<[string, T]>]> {
  const key = ([f, v]: [string, T]) => `${f}\u0000${String(v)}`;
  const keysOf = async (entries: ReadonlyArray<[string, T]>) => {
    const keys: string[] = [];
    for (let i = 0; i < entries.length; i += SLICE) {
      for (const entry of entries.slice(i, i + SLICE)) keys.push(key(entry));
      await pacer.pace();
    }
    return keys;
  };
  const [oldKeys, nextKeys] = [await keysOf(before), await keysOf(after)];
  const [old, next] = [new Set(oldKeys), new Set(nextKeys)];
  return [before.filter((_, i) => !next.has(oldKeys[i])), after.filter((_, i) => !old.has(nextKeys[i]))];
}

/** Entries keyed between two looks at the clock. */
const SLICE = 1000;
