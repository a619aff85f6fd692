import { ValidationError } from '../errors.js';
import type { Keyset } from '../store/search-types.js';

/**
 * Scroll ids are opaque to clients: the sort they belong to and the sort key of the last entity
 * of the previous page (base64url JSON). A page starts strictly after that key, so entities that
 * exist throughout a scroll are seen exactly once whatever is written meanwhile (as long as their
 * own sort value does not change).
 */
export function encodeScrollId(sort: string, keyset: Keyset): string {
  const body = { s: sort, a: keyset.urn, ...(keyset.value === undefined ? {} : { v: keyset.value }), ...(keyset.id === undefined ? {} : { i: keyset.id }) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The keyset of a scroll id made for this sort; a malformed one, or one of another sort, is a 400. */
export function decodeScrollId(scrollId: string | undefined, sort: string): Keyset | undefined {
  if (scrollId === undefined || scrollId === '') return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationError(`Invalid scrollId: ${scrollId}`);
  }
  const { s, a, v, i, after } = (decoded ?? {}) as { s?: unknown; a?: unknown; v?: unknown; i?: unknown; after?: unknown };
  // Scroll ids of earlier versions carried only the last URN, in URN order.
  if (s === undefined && typeof after === 'string' && after.startsWith('urn:li:') && sort === 'urn:ASCENDING') return { urn: after };
  const valueOk = v === undefined || v === null || typeof v === 'string' || typeof v === 'number';
  if (typeof s !== 'string' || typeof a !== 'string' || !a.startsWith('urn:li:') || !valueOk || (i !== undefined && !Number.isInteger(i))) {
    throw new ValidationError(`Invalid scrollId: ${scrollId}`);
  }
  if (s !== sort) throw new ValidationError(`Invalid scrollId: it continues a scroll sorted by ${s}, not ${sort}`);
  return { urn: a, ...(v === undefined ? {} : { value: v as string | number | null }), ...(i === undefined ? {} : { id: i as number }) };
}
