/**
 * Long synchronous loops share the event loop: a request that works through thousands of items
 * (a batch write, a batch read, an index rebuild) yields once it has run SLICE_MS since its last
 * yield, so that /health and other requests get their turn in between. Checking the clock costs
 * tens of nanoseconds; yielding (one setImmediate) a few microseconds.
 */
export const SLICE_MS = 10;

export class Pacer {
  private since = performance.now();

  /** Resolves at once while the slice lasts; otherwise after the event loop has had a turn. */
  async pace(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }

  /** Whether the slice is used up (for synchronous code that must stop at a safe point first). */
  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }
}
