import type { Store } from '../store/store.js';
import type { HistogramFamily, HistogramSeries } from './series.js';

/** The store calls that are timed: the one write (a transaction) and the reads requests wait on. */
const TIMED = [
  'commit',
  'getLatest',
  'getLatestMany',
  'getVersion',
  'getHistory',
  'scanAspect',
  'listUrns',
  'getLatestRange',
  'search',
  // The graph: an entity's relationships, and their counts.
  'readEdges',
  'countEdges',
  'adjacentEdges',
  'softDeleted',
  'readEvents',
  'pruneEvents',
  // Timeseries points: an entity's, the latest ones, a scroll, deletes and retention.
  'readPoints',
  'latestPoints',
  'scrollPoints',
  'deletePoints',
  'prunePoints',
  // Every request with a secret not known here looks it up: the figure shows an attack of made-up tokens.
  'tokenByHash',
] as const;

/**
 * The store, with each timed call observed in `seconds` (labels: operation, outcome). A proxy, so
 * it wraps SQLite and PostgreSQL alike and passes everything else through. What a property read
 * gives is made once per method (a test may replace one: then once more) instead of per call, so
 * a call costs a clock read and a few additions.
 */
export function meterStore(store: Store, seconds: HistogramFamily<'operation' | 'outcome'>): Store {
  const timedOps = new Set<PropertyKey>(TIMED);
  const made = new Map<PropertyKey, { member: unknown; call: unknown }>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      const known = made.get(property);
      if (known?.member === member) return known.call;
      const method = member as (...args: unknown[]) => Promise<unknown>;
      const call = timedOps.has(property)
        ? timed(method.bind(target), seconds.series(String(property), 'ok'), seconds.series(String(property), 'error'))
        : method.bind(target);
      made.set(property, { member, call });
      return call;
    },
  });
}

function timed(call: (...args: unknown[]) => Promise<unknown>, ok: HistogramSeries, failed: HistogramSeries) {
  // Not an async function: the caller awaits the store's own promise, and the timing hangs off it
  // (an async wrapper added a promise and a turn of the microtask queue to every store call).
  return (...args: unknown[]): Promise<unknown> => {
    const start = performance.now();
    const seconds = () => (performance.now() - start) / 1000;
    let settled: Promise<unknown>;
    try {
      settled = Promise.resolve(call(...args)); // the same promise when it is one
    } catch (error) {
      failed.observe(seconds());
      return Promise.reject(error);
    }
    settled.then(
      () => ok.observe(seconds()),
      () => failed.observe(seconds()),
    );
    return settled;
  };
}
