import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what its last full collection kept alive, in percent. Left
 * to itself, V8 lets it grow up to 4× under heavy allocation (a bulk load) and keeps the pages
 * until the next full collection: RSS stood at 350 MiB after loading 1M datasets. A serving
 * process caps the growth, which keeps its RSS near its live set for more frequent full
 * collections (marked concurrently, mostly off the event loop). V8 reads the flag at each
 * collection, so it can be set once the process runs.
 */
export function limitHeapGrowth(percent: number): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
