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
    for (const { field, path } of this.fields.sourcesOf(aspect)) {
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
            index.words('keywords', v);
            break;
          case 'keyword':
            if (typeof v !== 'string') break;
            index.term(field.name, v);
            index.text('keywords', v);
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
  write(urn: string, entity: EntitySpec, aspect: string, before: AspectIndex, after: AspectIndex): IndexWrite | undefined {
    const [removeTerms, addTerms] = difference(before.terms, after.terms);
    const [removeNumbers, addNumbers] = difference(before.numbers, after.numbers);
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

/** The values at a path, arrays flattened at every step. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  let values = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of values) {
      if (!isRecord(v) || v[step] === undefined) continue;
      const found = v[step];
      // A loop, not push(...found): 200,000 tags as arguments overflow the stack.
      if (Array.isArray(found)) for (const item of found.flat()) next.push(item);
      else next.push(found);
    }
    values = next;
  }
  return values;
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
    const text = this.columns.size === 0 ? undefined : Object.fromEntries([...this.columns].map(([c, parts]) => [c, parts.join('\n')]));
    return { terms: [...this.terms.values()], numbers: [...this.numbers.values()], ...(text ? { text } : {}) };
  }
}

function difference<T>(before: ReadonlyArray<[string, T]>, after: ReadonlyArray<[string, T]>): [Array<[string, T]>, Array<[string, T]>] {
  const key = ([f, v]: [string, T]) => `${f}\u0000${String(v)}`;
  const old = new Set(before.map(key));
  const next = new Set(after.map(key));
  return [before.filter((e) => !next.has(key(e))), after.filter((e) => !old.has(key(e)))];
}
