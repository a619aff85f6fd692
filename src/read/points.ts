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

// Points read per statement while a filter is applied: enough that a selective filter costs few round trips.
const FILTER_PAGE = 500;

/**
 * An entity's points, newest first. A filter is applied to the values as they are read, a page at
 * a time, until `limit` match or the range is exhausted: it costs the points it has to skip, all of
 * them one entity's (DataHub filters in its index; here only the time is indexed).
 */
export async function readPoints(store: Store, urn: string, aspect: string, read: PointRead): Promise<StoredPoint[]> {
  const { start, end, limit, filter } = read;
  if (limit <= 0) return [];
  if (filter.length === 0) return store.readPoints(urn, aspect, { start, end, limit });
  const found: StoredPoint[] = [];
  const pacer = new Pacer();
  let before: StoredPoint | undefined;
  for (;;) {
    const page = await store.readPoints(urn, aspect, { start, end, limit: FILTER_PAGE, ...(before ? { before: { timestampMillis: before.timestampMillis, key: before.key } } : {}) });
    for (const point of page) {
      if (!matchesFilter(filter, point.value)) continue;
      found.push(point);
      if (found.length === limit) return found;
    }
    if (page.length < FILTER_PAGE) return found;
    before = page[page.length - 1];
    await pacer.pace();
  }
}
