/**
 * In-process locks keyed by URN. Writers of the same entity in this process queue up instead of
 * racing (and retrying) on the store's compare-and-set, which stays as the guard between processes.
 * All keys of a batch are taken at once, in one tick, so two batches can never deadlock.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: Iterable<string>, work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const previous = unique.map((key) => this.tails.get(key)).filter((p): p is Promise<void> => p !== undefined);
    for (const key of unique) this.tails.set(key, done);
    try {
      if (previous.length > 0) await Promise.all(previous);
      return await work();
    } finally {
      release();
      for (const key of unique) if (this.tails.get(key) === done) this.tails.delete(key);
    }
  }
}
