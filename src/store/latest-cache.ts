import type { StoredAspect } from './store.js';

/**
 * Latest aspect values this process has read or written (null: known to be absent), so the write
 * path's "what is there now?" and repeated reads skip SQLite. The store clears it whenever another
 * connection has committed (PRAGMA data_version), and updates it after each of its own commits.
 * Values are shared between callers: nothing may mutate them (the write path clones before patching).
 */
export class LatestCache {
  private readonly entries = new Map<string, StoredAspect | null>();

  constructor(private readonly limit = 50_000) {}

  get(urn: string, aspect: string): StoredAspect | null | undefined {
    return this.entries.get(`${urn}\u0000${aspect}`);
  }

  set(urn: string, aspect: string, stored: StoredAspect | null): void {
    // A full cache starts over: simpler than LRU, and refilling costs one read per aspect.
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(`${urn}\u0000${aspect}`, stored);
  }

  clear(): void {
    this.entries.clear();
  }
}
