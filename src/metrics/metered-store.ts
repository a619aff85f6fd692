import type { Histogram } from 'prom-client';
import type { Store } from '../store/store.js';

/** The store calls that are timed: the one write (a transaction) and the reads requests wait on. */
const TIMED = new Set<string>([
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
]);

/**
 * The store, with each timed call observed in `seconds` (labels: operation, outcome). A proxy
 * rather than a class, so it wraps SQLite and PostgreSQL alike and passes everything else through.
 */
export function meterStore(store: Store, seconds: Histogram<'operation' | 'outcome'>): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      const call = member as (...args: unknown[]) => unknown;
      if (typeof property !== 'string' || !TIMED.has(property)) return call.bind(target);
      return (...args: unknown[]) => {
        const end = seconds.startTimer({ operation: property });
        return (call.apply(target, args) as Promise<unknown>).then(
          (result) => {
            end({ outcome: 'ok' });
            return result;
          },
          (error: unknown) => {
            end({ outcome: 'error' });
            throw error;
          },
        );
      };
    },
  });
}
