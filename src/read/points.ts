import { ValidationError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { Pacer } from '../pace.js';
import type { Store, StoredPoint } from '../store/store.js';
import { matchesFilter, type PointFilter } from './point-filter.js';

/** Which points of an entity's timeseries aspect to read: newest first, at most `limit`. */
export interface PointRead {
  start?: number;
  end?: number;
  limit: number;
  filter: PointFilter;
}

// Points read per statement: enough that a selective filter costs few round trips, few enough that
// a page of large points is not held all at once before the answer's budget is checked.
const PAGE = 500;

/**
 * An entity's points, newest first, read a page at a time. A filter is applied to the values as
 * they are read, until `limit` match or the range is exhausted: it costs the points it has to
 * skip, all of them one entity's (DataHub filters in its index; here only the time is indexed).
 * Past LIMITS.timeseriesAnswerChars of JSON the read is refused rather than answered.
 */
export async function readPoints(store: Store, urn: string, aspect: string, read: PointRead): Promise<StoredPoint[]> {
  const { start, end, limit, filter } = read;
  if (limit <= 0) return [];
  const found: StoredPoint[] = [];
  const pacer = new Pacer();
  let chars = 0;
  let before: StoredPoint | undefined;
  for (;;) {
    const size = filter.length === 0 ? Math.min(PAGE, limit - found.length) : PAGE;
    const page = await store.readPoints(urn, aspect, { start, end, limit: size, ...(before ? { before: { timestampMillis: before.timestampMillis, key: before.key } } : {}) });
    for (const point of page) {
      if (!matchesFilter(filter, point.value)) continue;
      chars += point.size;
      if (chars > LIMITS.timeseriesAnswerChars) throw tooLarge();
      found.push(point);
      if (found.length === limit) return found;
    }
    if (page.length < size) return found;
    before = page[page.length - 1];
    await pacer.pace();
  }
}

/** Refuses a page of points holding more than LIMITS.timeseriesAnswerChars of JSON. */
export function checkAnswerSize(points: readonly StoredPoint[]): void {
  let chars = 0;
  for (const point of points) chars += point.size;
  if (chars > LIMITS.timeseriesAnswerChars) throw tooLarge();
}

function tooLarge(): ValidationError {
  return new ValidationError(
    `The points asked for hold more than ${LIMITS.timeseriesAnswerChars / 2 ** 20} MiB of JSON (limit timeseriesAnswerChars): ask for fewer (limit) or a shorter time range`,
  );
}
