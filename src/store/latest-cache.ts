import type { StoredAspect } from './store.js';

/**
 * Latest aspect values this process has read or written (null: known to be absent), so the write
 * path's "what is there now?" and repeated reads skip SQLite. The store clears it whenever another
 * connection has committed (PRAGMA data_version), and updates it after each of its own commits.
 * Values are shared between callers: nothing may mutate them (the write path clones before patching).
 */
export class LatestCache {
  /** By URN, then aspect: no key string to build (and hash) per lookup. */
  private readonly entities = new Map<string, Map<string, StoredAspect | null>>();
  private size = 0;

  constructor(private readonly limit = 50_000) {}

  get(urn: string, aspect: string): StoredAspect | null | undefined {
    return this.entities.get(urn)?.get(aspect);
  }

  set(urn: string, aspect: string, stored: StoredAspect | null): void {
    // A full cache starts over: simpler than LRU, and refilling costs one read per aspect.
    if (this.size >= this.limit) this.clear();
    let aspects = this.entities.get(urn);
    if (!aspects) this.entities.set(urn, (aspects = new Map()));
    if (!aspects.has(aspect)) this.size++;
    aspects.set(aspect, stored);
  }

  clear(): void {
    this.entities.clear();
    this.size = 0;
  }
}
