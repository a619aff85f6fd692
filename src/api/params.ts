import { ValidationError } from '../errors.js';

/** `aspects=a&aspects=b` and `aspects=a,b` (and DataHub's legacy `aspectNames`) as one list. */
export function aspectList(...values: Array<string[] | string | undefined>): string[] | undefined {
  const names = values
    .flat()
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  return names.length > 0 ? names : undefined;
}

/** Scroll ids are opaque to clients: the last URN of the previous page, base64url-encoded. */
export function encodeScrollId(lastUrn: string): string {
  return Buffer.from(JSON.stringify({ after: lastUrn }), 'utf8').toString('base64url');
}

export function decodeScrollId(scrollId: string | undefined): string | undefined {
  if (scrollId === undefined || scrollId === '') return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof decoded.after === 'string' && decoded.after.startsWith('urn:li:')) return decoded.after;
  } catch {
    // fall through to the error below
  }
  throw new ValidationError(`Invalid scrollId: ${scrollId}`);
}

export const MAX_COUNT = 1000;

/** A page size: default 10, silently capped at MAX_COUNT as DataHub does; below 1 is an error. */
export function pageSize(count: number | undefined): number {
  if (count === undefined) return 10;
  if (!Number.isInteger(count) || count < 1) throw new ValidationError(`count must be a positive integer, got ${count}`);
  return Math.min(count, MAX_COUNT);
}
