import { ValidationError } from '../errors.js';
import { jsonEqual, jsonText } from '../json.js';
import type { GraphEdges } from '../graph/edges.js';
import type { EntitySpec } from '../registry/registry.js';
import type { IndexedChange, RequestValues, SearchIndexer } from '../search/indexer.js';
import type { EdgeWrite } from '../store/graph-types.js';
import type { AspectWrite, AuditStamp, ChangeEvent, ChangeType, CommitBatch, PointMetadata, PointRemoval, Store, SystemMetadata, TimeseriesPoint } from '../store/store.js';
import type { PointPlace } from './point-key.js';
import type { BatchState } from './batch-state.js';
import type { AppliedChange, ClientSystemMetadata, WriteContext } from './proposal.js';

/** The entity an aspect change is made to. */
export interface ChangedEntity {
  urn: string;
  entity: EntitySpec;
  /** Who the change is attributed to, when not the request's actor (Proposal.actor). */
  actor?: string;
}

/**
 * What a request's one transaction will write: the aspect rows and their change-log events, and
 * the aspects whose search index entries must follow. Each change also updates the batch state,
 * so the request's later proposals see it.
 */
export class PendingCommit {
  private readonly writes: AspectWrite[] = [];
  private readonly points: TimeseriesPoint[] = [];
  private readonly pointRemovals: PointRemoval[] = [];
  readonly events: ChangeEvent[] = [];
  /** Each indexed or edge-naming aspect's value as stored and as this request leaves it. */
  private readonly tracked = new Map<string, IndexedChange>();
  private readonly stamp: AuditStamp;
  /** JSON characters of the new values written so far. */
  private written = 0;

  constructor(
    private readonly state: BatchState,
    private readonly context: WriteContext,
    private readonly now: number,
    /** The most JSON characters of new aspect values one request may write. */
    private readonly maxWritten: number,
    /** Without one, writes leave the search index alone. */
    private readonly indexer?: SearchIndexer,
    /** Without one, writes leave the graph alone. */
    private readonly graph?: GraphEdges,
  ) {
    this.stamp = { time: now, actor: context.actor };
  }

  /**
   * Writes a value. The same value as stored only touches its system metadata (lastObserved,
   * runId): no new version, no event, nothing to index.
   */
  put({ urn, entity, actor }: ChangedEntity, aspect: string, value: unknown, changeType: ChangeType, given?: ClientSystemMetadata): AppliedChange {
    const aspects = this.state.aspects(urn);
    const current = aspects.get(aspect);
    const base = { urn, entityType: entity.name, aspect };
    if (current && jsonEqual(current.value, value)) {
      const systemMetadata: SystemMetadata = {
        ...current.systemMetadata,
        lastObserved: given?.lastObserved ?? this.now,
        ...(given?.runId !== undefined ? { runId: given.runId } : {}),
      };
      this.writes.push({ kind: 'touch', urn, aspect, systemMetadata, expectedVersion: current.version });
      aspects.set(aspect, { ...current, systemMetadata });
      return { ...base, value, systemMetadata, changed: false };
    }
    this.charge(urn, aspect, value);
    const stamp = this.stampOf(actor);
    const version = (current?.version ?? 0) + 1;
    const systemMetadata: SystemMetadata = {
      version: String(version),
      lastObserved: given?.lastObserved ?? this.now,
      ...(given?.runId !== undefined ? { runId: given.runId } : {}),
      properties: { ...given?.properties, eventSource: this.context.source },
      aspectCreated: current?.systemMetadata.aspectCreated ?? stamp,
      aspectModified: stamp,
    };
    // Literals rather than spreads of `base`: the spreads were a fifth of this method's time.
    this.writes.push({ kind: 'put', urn, entityType: entity.name, aspect, value, systemMetadata, expectedVersion: current?.version ?? 0 });
    this.track({ urn, entity }, aspect, current?.value, value);
    this.events.push({ urn, entityType: entity.name, aspect, changeType, created: stamp, value, previousValue: current?.value ?? null, systemMetadata });
    aspects.set(aspect, { value, systemMetadata, version });
    return { ...base, value, systemMetadata, changed: true };
  }

  /**
   * Appends a timeseries point (replacing a stored point with its key). Logged as DataHub's
   * change log logs it: an UPSERT of the aspect, with no previous value (points are not versions).
   */
  point({ urn, entity, actor }: ChangedEntity, aspect: string, value: unknown, place: PointPlace, given?: ClientSystemMetadata): AppliedChange {
    this.charge(urn, aspect, value);
    const stamp = this.stampOf(actor);
    const systemMetadata: PointMetadata = {
      lastObserved: given?.lastObserved ?? this.now,
      ...(given?.runId !== undefined ? { runId: given.runId } : {}),
      properties: { ...given?.properties, eventSource: this.context.source },
    };
    this.points.push({ urn, entityType: entity.name, aspect, ...place, value, systemMetadata, written: stamp });
    this.events.push({ urn, entityType: entity.name, aspect, changeType: 'UPSERT', created: stamp, value, previousValue: null, systemMetadata });
    return { urn, entityType: entity.name, aspect, value, systemMetadata, changed: true };
  }

  /** Removes an entity's timeseries points (all of them, or as the removal says), in this transaction. */
  removePoints(removal: PointRemoval): void {
    this.pointRemovals.push(removal);
  }

  /** Deletes an aspect; false when it was absent. */
  remove({ urn, entity, actor }: ChangedEntity, aspect: string): boolean {
    const aspects = this.state.aspects(urn);
    const current = aspects.get(aspect);
    if (!current) return false;
    this.writes.push({ kind: 'remove', urn, aspect, expectedVersion: current.version });
    this.track({ urn, entity }, aspect, current.value, undefined);
    this.events.push({
      urn,
      entityType: entity.name,
      aspect,
      changeType: 'DELETE',
      created: this.stampOf(actor),
      value: null,
      previousValue: current.value,
      systemMetadata: null,
    });
    aspects.delete(aspect);
    return true;
  }

  private stampOf(actor: string | undefined): AuditStamp {
    return actor === undefined || actor === this.stamp.actor ? this.stamp : { time: this.stamp.time, actor };
  }

  /**
   * The whole batch, with the index writes of the changes (typed by the definitions as `lookups`
   * see them) and the edges they add and remove.
   */
  async batchFor(lookups: RequestValues, store: Store): Promise<CommitBatch> {
    const changes = [...this.tracked.values()];
    const indexer = this.indexer;
    const index = indexer ? await indexer.writes(changes.filter((c) => indexer.indexes(c.entity, c.aspect)), lookups, store) : [];
    const edges: EdgeWrite[] = [];
    const graph = this.graph;
    if (graph) {
      for (const { urn, entity, aspect, before, after } of changes) {
        const spec = entity.aspects.get(aspect);
        const write = spec && graph.change(urn, spec, before, after);
        if (write) edges.push(write);
      }
    }
    return { writes: this.writes, events: this.events, index, points: this.points, pointRemovals: this.pointRemovals, edges };
  }

  /**
   * Every new value is kept whole (as a version, in its event, in the answer), so a small request
   * that rewrites a large aspect many times (a batch of patches to it) would cost time and memory
   * in proportion to both: past the budget the request is refused before it grows further.
   */
  private charge(urn: string, aspect: string, value: unknown): void {
    this.written += jsonText(value).length;
    if (this.written > this.maxWritten) {
      const mib = Math.round(this.maxWritten / 2 ** 20);
      throw new ValidationError(
        `This request writes more than ${mib} MiB of aspect values (JSON), the most one request may write; it had got to ${aspect} of ${urn}. Split it into smaller requests`,
      );
    }
  }

  private track({ urn, entity }: ChangedEntity, aspect: string, before: unknown, after: unknown): void {
    if (!this.indexer?.indexes(entity, aspect) && !this.graph?.drawsFrom(entity, aspect)) return;
    const key = `${urn}\u0000${aspect}`;
    const known = this.tracked.get(key);
    if (known) known.after = after;
    else this.tracked.set(key, { urn, entity, aspect, before, after });
  }
}
