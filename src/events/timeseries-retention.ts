import type { Registry } from '../registry/registry.js';
import type { Store } from '../store/store.js';
import { HourlyRetention, type RetentionLog } from './retention.js';

/** Points deleted per statement: each chunk holds the write lock briefly, and the event loop runs between chunks. */
export const PRUNE_CHUNK = 5_000;

/**
 * Drops timeseries points whose timestampMillis is older than the retention (`--timeseries-retention`):
 * at start, then hourly; 0 keeps them all. Aspect by aspect, in chunks with a turn of the event
 * loop between them, so a large prune never stalls requests. Points are not versions and their
 * pruning logs no change-log event (DataHub's retention of timeseries indexes logs none either).
 */
export class TimeseriesRetention extends HourlyRetention {
  private readonly aspects: string[];

  constructor(
    private readonly store: Store,
    registry: Registry,
    retentionMs: number,
    private readonly log?: RetentionLog,
  ) {
    super(retentionMs);
    const names = new Set<string>();
    for (const entity of registry.entityTypes()) for (const aspect of entity.aspects.values()) if (aspect.kind === 'timeseries') names.add(aspect.name);
    this.aspects = [...names].sort();
  }

  /** Prunes once; returns how many points went. */
  async prune(now = Date.now()): Promise<number> {
    let pruned = 0;
    try {
      for (const aspect of this.aspects) {
        for (;;) {
          const gone = await this.store.prunePoints(aspect, now - this.retentionMs, PRUNE_CHUNK);
          pruned += gone;
          if (gone < PRUNE_CHUNK) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (pruned > 0) this.log?.info({ pruned }, 'timeseries: dropped points past retention');
    } catch (error) {
      this.log?.error({ err: error }, 'timeseries: pruning failed');
    }
    return pruned;
  }
}
