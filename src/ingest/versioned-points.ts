import type { Registry } from '../registry/registry.js';
import type { Store, StoredAspect, TimeseriesPoint } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';
import { pointPlace } from './point-key.js';

/** Where moving reports (app.ts passes Fastify's logger). */
export interface MoveLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const PAGE = 200;

/**
 * Data dirs and databases from before timeseries aspects kept their values as versions of the
 * aspect. At start, each such value (the latest and every earlier version) becomes a point, and
 * the versions go: one commit per page, with no change-log event (the values were logged when
 * written) and no index change (no timeseries aspect is indexed). A value that is not a point (no
 * timestampMillis) stays where it is, and is reported. Once nothing is left, a start costs one
 * empty page read per timeseries aspect.
 */
export async function moveVersionedPoints(store: Store, registry: Registry, log?: MoveLog): Promise<number> {
  const names = new Set<string>();
  for (const entity of registry.entityTypes()) for (const aspect of entity.aspects.values()) if (aspect.kind === 'timeseries') names.add(aspect.name);
  let moved = 0;
  for (const aspect of names) {
    let after: string | undefined;
    for (;;) {
      const rows = await store.scanAspect(aspect, after, PAGE);
      const points: TimeseriesPoint[] = [];
      const writes = [];
      for (const row of rows) {
        const values = await versionsOf(store, row);
        const entityType = parseUrn(row.urn).entityType;
        const entity = registry.entityType(entityType);
        let placed: TimeseriesPoint[];
        try {
          // Oldest first: of two versions with one key, the later wins, as it would have.
          placed = values.reverse().map((v) => ({
            urn: row.urn,
            entityType: entity?.name ?? entityType,
            aspect,
            ...pointPlace(aspect, v.value),
            value: v.value,
            systemMetadata: { lastObserved: v.systemMetadata.lastObserved, ...(v.systemMetadata.runId !== undefined ? { runId: v.systemMetadata.runId } : {}), ...(v.systemMetadata.properties ? { properties: v.systemMetadata.properties } : {}) },
            written: v.systemMetadata.aspectModified,
          }));
        } catch (error) {
          log?.warn({ urn: row.urn, aspect, err: error }, 'timeseries: a stored value is not a point; left as a version');
          continue;
        }
        points.push(...placed);
        writes.push({ kind: 'remove' as const, urn: row.urn, aspect, expectedVersion: Number(row.systemMetadata.version) });
      }
      if (writes.length > 0) await store.commit({ writes, events: [], points });
      moved += points.length;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].urn;
    }
  }
  if (moved > 0) log?.info({ moved }, 'timeseries: values kept as versions by an earlier urnbase became points');
  return moved;
}

/** The latest value and every earlier one, newest first. */
async function versionsOf(store: Store, latest: StoredAspect): Promise<StoredAspect[]> {
  const values = [latest];
  for (let version = 1; ; version++) {
    const older = await store.getVersion(latest.urn, latest.aspect, version);
    if (!older) return values;
    values.push(older);
  }
}
