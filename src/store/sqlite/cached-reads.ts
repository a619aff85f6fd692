import type Database from 'better-sqlite3';
import type { RowAspect } from '../rows.js';
import type { CommitBatch, StoredAspect } from '../store.js';
import { LISTED_URNS, type AspectReads } from './aspect-reads.js';
import { LatestCache } from './latest-cache.js';
import { writtenLength } from '../../json.js';

/**
 * Latest-value reads through the LatestCache: named aspects come from the cache where it knows
 * them, the rest (and "all aspects") from SQLite. The cache is cleared when another connection
 * has committed (PRAGMA data_version) or a compare-and-set was lost, and updated after this
 * connection's own commits.
 */
export class CachedReads {
  private readonly cache = new LatestCache();
  private readonly dataVersionOf: Database.Statement<[], number>;
  private dataVersion = -1;
  private checkedThisTurn = false;

  constructor(
    db: Database.Database,
    private readonly reads: AspectReads,
  ) {
    this.dataVersionOf = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  getLatestMany(urns: readonly string[], aspects?: readonly string[]): StoredAspect[] {
    // Bulk reads (catalog runs, big batches) are scans: caching them would only churn the cache.
    if (urns.length > LISTED_URNS) return this.reads.latest(urns, aspects);
    if (!aspects) return this.remember(this.reads.latest(urns, undefined), urns, undefined);
    this.checkFresh();
    if (urns.length === 1 && aspects.length === 1) {
      // One aspect of one entity (a GET, the write path's current value): the common case, without the sets below.
      const cached = this.cache.get(urns[0], aspects[0]);
      if (cached !== undefined) return cached === null ? [] : [cached];
    }
    const found: StoredAspect[] = [];
    const missingUrns = new Set<string>();
    const missingAspects = new Set<string>();
    for (const urn of urns) {
      for (const aspect of aspects) {
        const cached = this.cache.get(urn, aspect);
        if (cached === undefined) {
          missingUrns.add(urn);
          missingAspects.add(aspect);
        } else if (cached !== null) {
          found.push(cached);
        }
      }
    }
    if (missingUrns.size === 0) return found;
    const names = [...missingAspects];
    const rows = this.remember(this.reads.latest([...missingUrns], names), [...missingUrns], names);
    // Rows for aspects that were already cached come back too; keep each (urn, aspect) once.
    const seen = new Set(found.map((f) => `${f.urn}\u0000${f.aspect}`));
    return [...found, ...rows.filter((r) => !seen.has(`${r.urn}\u0000${r.aspect}`))];
  }

  /** Caches what a query found, and, for the aspects it named, what it did not find. */
  private remember(rows: RowAspect[], urns: readonly string[], aspects: readonly string[] | undefined): RowAspect[] {
    if (aspects) for (const urn of urns) for (const aspect of aspects) this.cache.set(urn, aspect, null, 0);
    for (const row of rows) this.cache.set(row.urn, row.aspect, row, row.size);
    return rows;
  }

  /**
   * Another connection (the CLI, another process) committed: what we cached may be stale. Asking
   * SQLite costs a read lock, so it is asked once per turn of the event loop, not per read.
   */
  private checkFresh(): void {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(() => (this.checkedThisTurn = false));
    const version = this.dataVersionOf.get() as number;
    if (version !== this.dataVersion) {
      this.cache.clear();
      this.dataVersion = version;
    }
  }

  /** A lost compare-and-set means someone else wrote: re-read from SQLite from now on. */
  stale(): void {
    this.cache.clear();
  }

  /** After a commit: what the cache knows of the written aspects becomes what was written. */
  committed(batch: CommitBatch): void {
    for (const write of batch.writes) {
      // Only entries already cached change; bulk writes do not fill (and churn) the cache.
      if (this.cache.get(write.urn, write.aspect) === undefined) continue;
      if (write.kind === 'remove') {
        this.cache.set(write.urn, write.aspect, null, 0);
      } else if (write.kind === 'put') {
        const stored = { urn: write.urn, aspect: write.aspect, version: 0, value: write.value, systemMetadata: write.systemMetadata };
        this.cache.set(write.urn, write.aspect, stored, writtenLength(write.value) + writtenLength(write.systemMetadata));
      } else {
        const cached = this.cache.get(write.urn, write.aspect);
        if (cached) this.cache.set(write.urn, write.aspect, { ...cached, value: cached.value, systemMetadata: write.systemMetadata }, this.cache.sizeOf(write.urn, write.aspect));
      }
    }
  }
}
