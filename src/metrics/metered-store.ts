import type { Store } from '../store/store.js';
import type { HistogramFamily, HistogramSeries } from './series.js';

/** The store calls that are timed: the one write (a transaction) and the reads requests wait on. */
const TIMED = [
  'commit',
  'getLatest',
  'getLatestMany',
  'getVersion',
  'scanAspect',
  'listUrns',
  'getLatestRange',
  'search',
  'readEvents',
  'pruneEvents',
] as const;

/**
 * The store, with each timed call observed in `seconds` (labels: operation, outcome). A proxy, so
 * it wraps SQLite and PostgreSQL alike and passes everything else through; each method is bound
 * (and timed ones wrapped) once, so a call costs a clock read and a few additions.
 */
export function meterStore(store: Store, seconds: HistogramFamily<'operation' | 'outcome'>): Store {
  const methods = new Map<PropertyKey, unknown>();
  for (const operation of TIMED) methods.set(operation, timed(store, operation, seconds.series(operation, 'ok'), seconds.series(operation, 'error')));
  return new Proxy(store, {
    get(target, property, receiver) {
      const known = methods.get(property);
      if (known !== undefined) return known;
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      const bound = (member as (...args: unknown[]) => unknown).bind(target);
      methods.set(property, bound);
      return bound;
    },
  });
}

function timed(store: Store, operation: (typeof TIMED)[number], ok: HistogramSeries, failed: HistogramSeries) {
  const call = (store[operation] as (...args: unknown[]) => Promise<unknown>).bind(store);
  return async (...args: unknown[]): Promise<unknown> => {
    const start = performance.now();
    try {
      const result = await call(...args);
      ok.observe((performance.now() - start) / 1000);
      return result;
    } catch (error) {
      failed.observe((performance.now() - start) / 1000);
      throw error;
    }
  };
}
