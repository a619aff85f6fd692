import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import { addressesTree, fold, unfold } from './fine-grained-patch.js';
import { KeyedIndexes, keyValue, NESTED } from './keyed-index.js';

/**
 * JSON Patch (RFC 6902) with DataHub's `arrayPrimaryKeys`: an array named in it is addressed by
 * its items' key values instead of indexes (`/properties/urn:li:structuredProperty:x`). `add`
 * inserts or replaces the keyed item (others keep their order; a new one is appended), `remove`
 * deletes it (removing an absent key is a no-op, so the operation is idempotent).
 */
export interface PatchDocument {
  patch: PatchOperation[];
  /** Array field name → its items' key fields; `␟` separates nested field names. */
  arrayPrimaryKeys?: Record<string, string[]>;
}

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/**
 * `copy` is the one operation whose result can outgrow the request: copying the root into itself
 * doubles the document, so 30 operations in 1 KB would ask for gigabytes.
 */
const MAX_COPIED_CHARS = 16 * 1024 * 1024;

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Checks the shape of a patch request body; throws ValidationError naming the offending part. */
export function parsePatchDocument(body: unknown): PatchDocument {
  const doc = Array.isArray(body) ? { patch: body } : body;
  if (!isRecord(doc) || !Array.isArray(doc.patch)) {
    throw new ValidationError('Patch body must be an object with a `patch` array of operations');
  }
  doc.patch.forEach((op: unknown, i: number) => {
    if (!isRecord(op) || typeof op.op !== 'string' || !OPS.has(op.op)) {
      throw new ValidationError(`patch[${i}].op must be one of add, remove, replace, move, copy, test`);
    }
    if (typeof op.path !== 'string') throw new ValidationError(`patch[${i}].path must be a string`);
    if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string') {
      throw new ValidationError(`patch[${i}].from must be a string`);
    }
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) {
      throw new ValidationError(`patch[${i}].value is required for ${op.op}`);
    }
  });
  const keys = doc.arrayPrimaryKeys;
  if (keys !== undefined && keys !== null) {
    const valid =
      isRecord(keys) &&
      Object.values(keys).every((k) => Array.isArray(k) && k.length > 0 && k.every((f) => typeof f === 'string'));
    if (!valid) throw new ValidationError('arrayPrimaryKeys must map array field names to lists of key field names');
  }
  return { patch: doc.patch as PatchOperation[], arrayPrimaryKeys: (keys ?? undefined) as PatchDocument['arrayPrimaryKeys'] };
}

/**
 * Applies the patch to a copy of `base` and returns the result. Keyed paths use the request's
 * arrayPrimaryKeys, or else `templateKeys`: the aspect's own (DataHub's patch templates), which
 * DataHub's SDK patch builders rely on, sending bare operations such as `add /tags/<tag urn>`.
 * `templateRequired` says how many of an array's template keys a path must give.
 */
export function applyPatch(base: unknown, doc: PatchDocument, templateKeys?: ArrayKeys, templateRequired?: RequiredKeys): unknown {
  let current = jsonpatch.deepClone(base);
  let copied = 0;
  const indexes = new KeyedIndexes();
  const keys = doc.arrayPrimaryKeys ?? templateKeys;
  const required = doc.arrayPrimaryKeys ? {} : (templateRequired ?? {});
  doc.patch.forEach((op, i) => {
    const passages: Passage[] = [];
    try {
      // Column lineage's tree paths (fine-grained-patch.ts) go to its tree, other paths to its list.
      if (addressesTree(op.path)) unfold(current);
      else fold(current);
      if (addressesTree(op.path) && op.op === 'remove' && !has(current, op.path)) return;
      const operations = keys ? resolveKeyedPaths(current, op, { keys, required, positional: !doc.arrayPrimaryKeys, indexes, passages }) : [op];
      for (const resolved of operations) {
        if (resolved.op === 'copy') copied += jsonSize(current, resolved.from!);
        if (copied > MAX_COPIED_CHARS) throw new Error(`copies may add at most ${MAX_COPIED_CHARS} characters of JSON to a document`);
        current = jsonpatch.applyOperation(current, resolved as Operation, true, true, true).newDocument;
      }
      for (const p of passages) indexes.passedThrough(p.array, p.keyFields, p.position, p.lengthBefore);
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ValidationError(`Patch operation ${i} (${op.op} ${op.path}) cannot be applied: ${reason}`);
    }
  });
  fold(current);
  return current;
}

/** Whether there is a value at `pointer` (removing what is not there does nothing, as in DataHub's templates). */
function has(doc: unknown, pointer: string): boolean {
  try {
    return jsonpatch.getValueByPointer(doc, pointer) !== undefined;
  } catch {
    return false;
  }
}

/** The JSON length of the value at `pointer`; 0 where there is none (applying the operation says so). */
function jsonSize(doc: unknown, pointer: string): number {
  try {
    return JSON.stringify(jsonpatch.getValueByPointer(doc, pointer))?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Rewrites keyed segments to indexes: the operations to apply in its place (none when it has
 * nothing to do; one per item for a remove by a partial compound key).
 */
function resolveKeyedPaths(doc: unknown, op: PatchOperation, keyed: KeyedResolution): PatchOperation[] {
  const path = resolvePointer(doc, op.path, keyed, op.op, op.value);
  if (path === null) return [];
  if ('under' in path) {
    // Every item under a partial key, last first so that the earlier positions hold.
    keyed.indexes.forget(path.array);
    return path.positions.reverse().map((position) => ({ op: 'remove', path: `${path.under}/${position}` }));
  }
  const resolved: PatchOperation = { ...op, path: path.pointer };
  // RFC 6902: members an operation does not define are ignored (`from` means something to move and copy only).
  if (op.op === 'move' || op.op === 'copy') {
    const from = resolvePointer(doc, op.from!, keyed, 'from', undefined);
    if (from === null || 'under' in from) throw new ValidationError(`Patch operation ${op.op} ${op.path}: no item at ${op.from}`);
    resolved.from = from.pointer;
  }
  if (path.keyed && op.op === 'add') {
    // add on an existing keyed item replaces it; on a new one it appends, filling in the key fields.
    if (path.existing) resolved.op = 'replace';
    if (!path.existing && isRecord(op.value)) resolved.value = { ...path.keyValues, ...op.value };
  }
  return [resolved];
}

/** Array field name → its items' key fields; none: the items are strings, each its own key. */
export type ArrayKeys = Readonly<Record<string, readonly string[]>>;

/** Array field name → how many of its key fields a path must give (all when absent). */
export type RequiredKeys = Readonly<Record<string, number>>;

interface KeyedResolution {
  keys: ArrayKeys;
  required: RequiredKeys;
  /** The keys are the aspect's, not the request's: a `-` or index segment keeps its RFC 6902 meaning. */
  positional: boolean;
  indexes: KeyedIndexes;
  /** Filled in: the keyed arrays the operation's paths go through, to keep their indexes true. */
  passages: Passage[];
}

/** A keyed segment of a path: the item at `position` of `array` (`lengthBefore` when it appends). */
interface Passage {
  array: unknown[];
  keyFields: readonly string[];
  position: number;
  lengthBefore: number;
}

interface ResolvedPointer {
  pointer: string;
  /** The last segment addressed a keyed array item. */
  keyed: boolean;
  existing: boolean;
  keyValues: Record<string, string>;
}

/** A remove by a partial compound key: the items of the array at `under` that have it. */
interface ItemsUnder {
  under: string;
  array: unknown[];
  positions: number[];
}

const POSITION = /^(-|0|[1-9]\d*)$/;

/**
 * As DataHub's templates read paths: a keyed array is addressed by its items' key values (an
 * absent key field is the empty segment); a remove by the first of several key values removes
 * every item with them, and removing what is not there does nothing; an add through an item or
 * object that is not there creates it (an item with the key fields its path gives). A path that
 * stops before the template keys an older SDK did not know (typeUrn, attribution.source) takes
 * them from the value it adds.
 */
function resolvePointer(doc: unknown, pointer: string, resolution: KeyedResolution, op: string, value: unknown): ResolvedPointer | ItemsUnder | null {
  const { keys, required: requiredKeys, positional, indexes, passages } = resolution;
  if (pointer === '') return { pointer, keyed: false, existing: true, keyValues: {} };
  const segments = pointer.split('/').slice(1).map(unescape);
  const out: string[] = [];
  let node: unknown = doc;
  let field: string | undefined;
  let keyed = false;
  let existing = true;
  let keyValues: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const keyFields = field !== undefined && Array.isArray(node) ? own(keys, field) : undefined;
    keyed = false;
    if (keyFields && !(positional && POSITION.test(segments[i]))) {
      const width = Math.max(1, keyFields.length);
      const required = Math.min(width, own(requiredKeys, field!) ?? width);
      const wanted = optionalAbsent(segments.slice(i, i + width), required);
      const array = node as unknown[];
      if (wanted.length < width) {
        if (op === 'remove') return { under: '/' + out.join('/'), array, positions: indexes.under(array, keyFields, wanted) };
        if (wanted.length < required) throw new ValidationError(`Patch path ${pointer} needs ${required} key segment(s) for ${field}`);
        for (let j = wanted.length; j < width; j++) wanted.push(keyValue(value, keyFields[j]));
      }
      // A short path (optional keys left out) ends here.
      i = Math.min(i + width, segments.length) - 1;
      // Nested and absent key values stay out of a new item: its value says them, or they are absent.
      keyValues = Object.fromEntries(keyFields.map((k, j) => [k, wanted[j]]).filter(([k, v]) => !k.includes(NESTED) && v !== ''));
      const index = indexes.find(array, keyFields, JSON.stringify(wanted));
      const last = i === segments.length - 1;
      existing = index >= 0;
      if (!existing && op === 'remove') return null;
      if (!existing && (op !== 'add' || (!last && keyFields.length === 0))) {
        throw new ValidationError(`Patch path ${pointer}: no item ${wanted.join('/')} in ${field}`);
      }
      passages.push({ array, keyFields, position: existing ? index : array.length, lengthBefore: array.length });
      keyed = true;
      if (!existing && last) {
        out.push('-');
        break;
      }
      if (!existing) array.push({ ...keyValues });
      out.push(String(existing ? index : array.length - 1));
      node = array[existing ? index : array.length - 1];
      field = undefined;
      continue;
    }
    const seg = segments[i];
    out.push(escape(seg));
    field = seg;
    const parent = node;
    // Own members only: `__proto__` or `constructor` must not lead into a prototype, which an add
    // through it would then change for every object of the process.
    node = isRecord(node) || Array.isArray(node) ? own(node as Record<string, unknown>, seg) : undefined;
    if (node === undefined && op === 'add' && i < segments.length - 1 && isRecord(parent) && !Object.hasOwn(parent, seg)) {
      node = own(keys, seg) ? [] : {};
      Object.defineProperty(parent, seg, { value: node, enumerable: true, writable: true, configurable: true });
    }
  }
  return { pointer: '/' + out.join('/'), keyed, existing, keyValues };
}

/**
 * Key segments past the required ones (typeUrn, an attribution source) that name no value: older
 * Python SDKs wrote `None` there (Python's str(None)), newer ones an empty segment.
 */
function optionalAbsent(segments: string[], required: number): string[] {
  return segments.map((segment, j) => (j >= required && segment === 'None' ? '' : segment));
}

/** A member the object has itself, never one it inherits. */
function own<T>(object: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
