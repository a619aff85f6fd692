import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import { KeyedIndexes, NESTED } from './keyed-index.js';

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

/** Applies the patch to a copy of `base` and returns the result. */
export function applyPatch(base: unknown, doc: PatchDocument): unknown {
  let current = jsonpatch.deepClone(base);
  let copied = 0;
  const indexes = new KeyedIndexes();
  doc.patch.forEach((op, i) => {
    const passages: Passage[] = [];
    const resolved = doc.arrayPrimaryKeys ? resolveKeyedPaths(current, op, { keys: doc.arrayPrimaryKeys, indexes, passages }) : op;
    if (resolved === null) return;
    try {
      if (resolved.op === 'copy') copied += jsonSize(current, resolved.from!);
      if (copied > MAX_COPIED_CHARS) throw new Error(`copies may add at most ${MAX_COPIED_CHARS} characters of JSON to a document`);
      current = jsonpatch.applyOperation(current, resolved as Operation, true, true, true).newDocument;
      for (const p of passages) indexes.passedThrough(p.array, p.keyFields, p.position, p.lengthBefore);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ValidationError(`Patch operation ${i} (${op.op} ${op.path}) cannot be applied: ${reason}`);
    }
  });
  return current;
}

/** The JSON length of the value at `pointer`; 0 where there is none (applying the operation says so). */
function jsonSize(doc: unknown, pointer: string): number {
  try {
    return JSON.stringify(jsonpatch.getValueByPointer(doc, pointer))?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Rewrites keyed segments to indexes; returns null for an operation that has nothing to do. */
function resolveKeyedPaths(doc: unknown, op: PatchOperation, keyed: KeyedResolution): PatchOperation | null {
  const path = resolvePointer(doc, op.path, keyed, op.op);
  if (path === null) return null;
  const resolved: PatchOperation = { ...op, path: path.pointer };
  // RFC 6902: members an operation does not define are ignored (`from` means something to move and copy only).
  if (op.op === 'move' || op.op === 'copy') {
    const from = resolvePointer(doc, op.from!, keyed, 'from');
    if (from === null) throw new ValidationError(`Patch operation ${op.op} ${op.path}: no item at ${op.from}`);
    resolved.from = from.pointer;
  }
  if (path.keyed && op.op === 'add') {
    // add on an existing keyed item replaces it; on a new one it appends, filling in the key fields.
    if (path.existing) resolved.op = 'replace';
    if (!path.existing && isRecord(op.value)) resolved.value = { ...path.keyValues, ...op.value };
  }
  return resolved;
}

interface KeyedResolution {
  keys: Record<string, string[]>;
  indexes: KeyedIndexes;
  /** Filled in: the keyed arrays the operation's paths go through, to keep their indexes true. */
  passages: Passage[];
}

/** A keyed segment of a path: the item at `position` of `array` (`lengthBefore` when it appends). */
interface Passage {
  array: unknown[];
  keyFields: string[];
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

function resolvePointer(doc: unknown, pointer: string, { keys, indexes, passages }: KeyedResolution, op: string): ResolvedPointer | null {
  if (pointer === '') return { pointer, keyed: false, existing: true, keyValues: {} };
  const segments = pointer.split('/').slice(1).map(unescape);
  const out: string[] = [];
  let node: unknown = doc;
  let field: string | undefined;
  let keyed = false;
  let existing = true;
  let keyValues: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const keyFields = field !== undefined && Array.isArray(node) ? keys[field] : undefined;
    keyed = false;
    if (keyFields) {
      const wanted = segments.slice(i, i + keyFields.length);
      if (wanted.length < keyFields.length) {
        throw new ValidationError(`Patch path ${pointer} needs ${keyFields.length} key segment(s) for ${field}`);
      }
      i += keyFields.length - 1;
      keyValues = Object.fromEntries(keyFields.filter((k) => !k.includes(NESTED)).map((k, j) => [k, wanted[j]]));
      const array = node as unknown[];
      const index = indexes.find(array, keyFields, JSON.stringify(wanted));
      passages.push({ array, keyFields, position: index >= 0 ? index : array.length, lengthBefore: array.length });
      const last = i === segments.length - 1;
      keyed = true;
      existing = index >= 0;
      if (!existing) {
        if (!last) throw new ValidationError(`Patch path ${pointer}: no item ${wanted.join('/')} in ${field}`);
        if (op === 'remove') return null;
        if (op !== 'add') throw new ValidationError(`Patch path ${pointer}: no item ${wanted.join('/')} in ${field}`);
        out.push('-');
        break;
      }
      out.push(String(index));
      node = (node as unknown[])[index];
      field = undefined;
      continue;
    }
    const seg = segments[i];
    out.push(escape(seg));
    field = seg;
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[seg] : undefined;
  }
  return { pointer: '/' + out.join('/'), keyed, existing, keyValues };
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
