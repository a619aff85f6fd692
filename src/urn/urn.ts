import { InvalidUrnError, ValidationError } from '../errors.js';
import { hasLoneSurrogate } from '../json.js';

/**
 * A parsed DataHub URN: `urn:li:<entityType>:<id>`, where the id is either a plain string or a
 * tuple `(a,b,c)` whose members may themselves be URNs or tuples.
 */
export interface Urn {
  readonly text: string;
  readonly entityType: string;
  /** The id as written after the entity type. */
  readonly id: string;
  /** The id's parts: the tuple members, or the id alone when it is not a tuple. */
  readonly parts: readonly string[];
}

const PREFIX = 'urn:li:';

/**
 * The longest a URN may be, in UTF-8 bytes. Percent-encoded (at most three characters a byte) it
 * stays within a path segment's 8,192 characters (app.ts) and far within Node's 16 KB of request
 * headers, so whatever is written can be read back by path. DataHub allows 512 bytes once
 * URL-encoded (schemaField URNs exempt): every URN it accepts fits.
 */
export const MAX_URN_BYTES = 2048;

/**
 * URNs parsed lately: the same ones come back again and again (an entity's every request, the
 * tags and owners inside aspect values), and a lookup costs far less than a parse. When full it
 * starts over, which is simpler than LRU and costs one parse per URN.
 */
const parsed = new Map<string, Urn>();
const PARSED_LIMIT = 10_000;

export function parseUrn(text: string): Urn {
  let urn = parsed.get(text);
  if (urn === undefined) {
    urn = parse(text);
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(text, urn);
  }
  return urn;
}

function parse(text: string): Urn {
  if (typeof text !== 'string' || !text.startsWith(PREFIX)) throw new InvalidUrnError(String(text));
  checkLength(text);
  // A URN is a key: text without a UTF-8 form would be stored as another URN (U+FFFD) than the one named.
  if (hasLoneSurrogate(text)) throw new InvalidUrnError(text);
  const rest = text.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new InvalidUrnError(text);
  const entityType = rest.slice(0, colon);
  const id = rest.slice(colon + 1);
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(entityType) || id.length === 0) throw new InvalidUrnError(text);
  if (/[\u0000-\u001f]/.test(id)) throw new InvalidUrnError(text);
  const parts = id.startsWith('(') ? parseTuple(id, text) : [id];
  for (const part of parts) checkMember(part, text);
  return Object.freeze({ text, entityType, id, parts: Object.freeze(parts) });
}

/** A URN over MAX_URN_BYTES: refused with its length and its start (the whole may be huge). */
function checkLength(text: string): void {
  // A character takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2), so short texts need no count.
  if (text.length * 3 <= MAX_URN_BYTES) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_URN_BYTES) {
    throw new ValidationError(`A URN may be at most ${MAX_URN_BYTES} bytes long (UTF-8); this one has ${bytes}: ${text.slice(0, 100)}…`);
  }
}

/**
 * The entity type of a URN known to be valid (one read back from the store), without parsing its
 * id: a walk over 100,000 entities reads each URN's type, and parseUrn's cache holds 10,000.
 */
export function entityTypeOf(urn: string): string {
  return urn.slice(PREFIX.length, urn.indexOf(':', PREFIX.length));
}

/** True when `text` parses as a URN (of `entityType`, when given). */
export function isUrn(text: unknown, entityType?: string | readonly string[]): boolean {
  if (typeof text !== 'string') return false;
  try {
    const urn = parseUrn(text);
    if (entityType === undefined) return true;
    return typeof entityType === 'string' ? urn.entityType === entityType : entityType.includes(urn.entityType);
  } catch {
    return false;
  }
}

export function formatUrn(entityType: string, parts: readonly string[]): string {
  const id = parts.length === 1 ? parts[0] : `(${parts.join(',')})`;
  return `${PREFIX}${entityType}:${id}`;
}

/** Splits `(a,b,(c,d))` into its top-level members, rejecting unbalanced parentheses. */
function parseTuple(id: string, whole: string): string[] {
  if (!id.endsWith(')')) throw new InvalidUrnError(whole);
  const inner = id.slice(1, -1);
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) throw new InvalidUrnError(whole);
    } else if (c === ',' && depth === 0) {
      members.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw new InvalidUrnError(whole);
  members.push(inner.slice(start));
  return members;
}

function checkMember(member: string, whole: string): void {
  if (member.trim().length === 0) throw new InvalidUrnError(whole);
  if (member.startsWith(PREFIX)) {
    try {
      parseUrn(member);
    } catch {
      throw new InvalidUrnError(whole);
    }
  } else if (member.startsWith('(')) {
    for (const inner of parseTuple(member, whole)) checkMember(inner, whole);
  } else if (!balanced(member)) {
    throw new InvalidUrnError(whole);
  }
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
