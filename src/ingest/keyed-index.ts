import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';

/** Separates nested field names in an arrayPrimaryKeys key field. */
export const NESTED = '\u241F';

/** How many items a patch may index in all: removing keyed items makes later ones move, so it reindexes. */
export const MAX_INDEXED_ITEMS = 10_000_000;

/** An item's key values as strings, the way path segments name them; an item without key fields is its own key. */
function keyValues(item: unknown, keyFields: readonly string[]): string[] {
  return keyFields.length === 0 ? [String(item)] : keyFields.map((field) => keyValue(item, field));
}

function itemKey(item: unknown, keyFields: readonly string[]): string {
  return JSON.stringify(keyValues(item, keyFields));
}

/** One key field's value as a path segment names it; absent or null is the empty string, as DataHub's templates key it. */
export function keyValue(item: unknown, keyField: string): string {
  let value: unknown = item;
  for (const part of keyField.split(NESTED)) value = isRecord(value) && Object.hasOwn(value, part) ? value[part] : undefined;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * Where each key of a keyed array sits, so that each keyed operation of a patch is a lookup, not
 * a scan (50,000 adds to one array took 150 s scanning). An array's index is built on its first
 * lookup and kept while operations append items or change one in place keeping its key.
 */
export class KeyedIndexes {
  private readonly indexes = new Map<unknown[], { keyFields: readonly string[]; positions: Map<string, number> }>();
  private indexed = 0;

  /** The position of the first item with this key, or -1. */
  find(array: unknown[], keyFields: readonly string[], key: string): number {
    let index = this.indexes.get(array);
    // The key fields come from the patch's arrayPrimaryKeys: the same list each time for a field.
    if (index?.keyFields !== keyFields) {
      this.count(array.length);
      const positions = new Map<string, number>();
      array.forEach((item, i) => {
        const key = itemKey(item, keyFields);
        if (!positions.has(key)) positions.set(key, i);
      });
      index = { keyFields, positions };
      this.indexes.set(array, index);
    }
    return index.positions.get(key) ?? -1;
  }

  /** The positions of the items whose first key values are `prefix` (a partial compound key), in order. */
  under(array: unknown[], keyFields: readonly string[], prefix: readonly string[]): number[] {
    this.count(array.length);
    const positions: number[] = [];
    array.forEach((item, i) => {
      const values = keyValues(item, keyFields);
      if (prefix.every((value, j) => values[j] === value)) positions.push(i);
    });
    return positions;
  }

  /** The array's items moved: its index is rebuilt on its next lookup. */
  forget(array: unknown[]): void {
    this.indexes.delete(array);
  }

  /** After an operation whose path went through `array` at `position` (the array had `lengthBefore` items). */
  passedThrough(array: unknown[], keyFields: readonly string[], position: number, lengthBefore: number): void {
    const index = this.indexes.get(array);
    if (!index) return;
    const key = position < array.length ? itemKey(array[position], keyFields) : undefined;
    const appended = array.length === lengthBefore + 1 && position === lengthBefore;
    if (key !== undefined && appended) {
      if (!index.positions.has(key)) index.positions.set(key, position);
    } else if (key === undefined || array.length !== lengthBefore || index.positions.get(key) !== position) {
      this.indexes.delete(array);
    }
  }

  private count(items: number): void {
    this.indexed += items;
    if (this.indexed > MAX_INDEXED_ITEMS) {
      throw new ValidationError(`Patch reindexes keyed arrays past ${MAX_INDEXED_ITEMS} items: split it into smaller patches`);
    }
  }
}
