import type { StoredAspect } from '../store.js';

/**
 * Latest aspect values this process has read or written (null: known to be absent), so the write
 * path's "what is there now?" and repeated reads skip SQLite. The store clears it whenever another
 * connection has committed (PRAGMA data_version), and updates it after each of its own commits.
 * Values are shared between callers: nothing may mutate them (the write path clones before patching).
 *
 * Bounded by entries and by size (the length of the values' JSON, about a third of what they take
 * parsed): a count alone let 4,000 cached 100 KB aspects hold 1 GB.
 */
export class LatestCache {
  /** By URN, then aspect: no key string to build (and hash) per lookup. */
  private readonly entities = new Map<string, Map<string, Entry>>();
  private entries = 0;
  private size = 0;

  constructor(
    private readonly maxEntries = 50_000,
    private readonly maxSize = 32 * 1024 * 1024,
  ) {}

  get(urn: string, aspect: string): StoredAspect | null | undefined {
    return this.entities.get(urn)?.get(aspect)?.stored;
  }

  /** `size`: the JSON length of the value and system metadata (0 for an absent aspect). */
  set(urn: string, aspect: string, stored: StoredAspect | null, size: number): void {
    // A full cache starts over: simpler than LRU, and refilling costs one read per aspect.
    if (this.entries >= this.maxEntries || this.size + size > this.maxSize) this.clear();
    let aspects = this.entities.get(urn);
    if (!aspects) this.entities.set(urn, (aspects = new Map()));
    const replaced = aspects.get(aspect);
    if (replaced) this.size -= replaced.size;
    else this.entries++;
    aspects.set(aspect, { stored, size });
    this.size += size;
  }

  /** The size an entry was cached with (0 when absent or not cached). */
  sizeOf(urn: string, aspect: string): number {
    return this.entities.get(urn)?.get(aspect)?.size ?? 0;
  }

  clear(): void {
    this.entities.clear();
    this.entries = 0;
    this.size = 0;
  }
}

interface Entry {
  stored: StoredAspect | null;
  size: number;
}
