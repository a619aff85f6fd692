import { ValidationError } from '../../../errors.js';
import type { LineageDirection, LineageHit } from '../../../graph/lineage.js';
import { relationshipTypes } from '../../../graph/relationships.js';
import { LIMITS } from '../../../limits.js';
import type { EdgeDirection } from '../../../store/graph-types.js';
import type { GraphQLContext } from '../context.js';
import { ENTITY_OBJECT_TYPES } from '../entity-types.js';

/**
 * `relationships` and `lineage` on every entity type: one hop of the graph from the entity. A
 * page of results asking either is read in one batch per kind of question (direction, relationship
 * types, …) per turn of the event loop, a statement each way per 500 entities, not a read per
 * result; and no entity is read but the neighbours' keys, when ghosts are left out.
 */
interface EntityRef {
  urn: string;
}

interface RelationshipsInput {
  types: readonly string[];
  direction: EdgeDirection;
  start?: number | null;
  count?: number | null;
  includeSoftDelete?: boolean | null;
}

interface LineageInput {
  direction: LineageDirection;
  start?: number | null;
  count?: number | null;
  separateSiblings?: boolean | null;
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  includeGhostEntities?: boolean | null;
}

/**
 * One request's one-hop reads of one kind, batched as EntityLoader batches entities: every URN
 * asked in one turn of the event loop is read together, each at most once per request.
 */
class OneHop<T> {
  private readonly loaded = new Map<string, Promise<T[]>>();
  private pending: Array<{ urn: string; settle: (found: T[]) => void; fail: (error: unknown) => void }> = [];

  constructor(private readonly read: (urns: string[]) => Promise<Map<string, T[]>>) {}

  load(urn: string): Promise<T[]> {
    let found = this.loaded.get(urn);
    if (!found) {
      found = new Promise((settle, fail) => {
        if (this.pending.length === 0) setImmediate(() => void this.readPending());
        this.pending.push({ urn, settle, fail });
      });
      this.loaded.set(urn, found);
    }
    return found;
  }

  private async readPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const found = await this.read(batch.map((p) => p.urn));
      for (const p of batch) p.settle(found.get(p.urn) ?? []);
    } catch (error) {
      for (const p of batch) p.fail(error);
    }
  }
}

/** Each request's loaders, by the question they answer; gone with the request's context. */
const requestLoaders = new WeakMap<GraphQLContext, Map<string, OneHop<unknown>>>();

function loader<T>(ctx: GraphQLContext, key: string, read: (urns: string[]) => Promise<Map<string, T[]>>): OneHop<T> {
  let loaders = requestLoaders.get(ctx);
  if (!loaders) requestLoaders.set(ctx, (loaders = new Map()));
  let found = loaders.get(key);
  if (!found) loaders.set(key, (found = new OneHop(read) as OneHop<unknown>));
  return found as OneHop<T>;
}

function window(start: number | null | undefined, count: number | null | undefined, defaultCount: number): { start: number; count: number } {
  const from = start ?? 0;
  if (!Number.isSafeInteger(from) || from < 0) throw new ValidationError(`start must be at least 0, got ${from}`);
  const size = count ?? defaultCount;
  if (!Number.isSafeInteger(size) || size < 0) throw new ValidationError(`count must be at least 0, got ${size}`);
  return { start: from, count: Math.min(size, LIMITS.graphqlResults) };
}

/**
 * Lineage neighbours of many entities. Without ghosts, only those stored (one read of their keys)
 * and not soft-deleted; with them, every one (DataHub's includeGhostEntities keeps soft-deleted
 * ones too).
 */
async function neighboursOf(ctx: GraphQLContext, urns: string[], direction: LineageDirection, ghosts: boolean): Promise<Map<string, LineageHit[]>> {
  const found = await ctx.services.lineage.neighbours(urns, direction, ghosts);
  if (ghosts) return found;
  const named = [...new Set([...found.values()].flat().map((hit) => hit.urn))].filter((urn) => known(ctx, urn));
  const stored = await ctx.services.reader.getEntities(named, new Set());
  return new Map([...found].map(([urn, hits]) => [urn, hits.filter((hit) => stored.has(hit.urn))]));
}

/** Whether the URN is of an entity type the registry knows (an edge may name another: it is then never stored). */
function known(ctx: GraphQLContext, urn: string): boolean {
  try {
    ctx.services.reader.entityOf(urn);
    return true;
  } catch {
    return false;
  }
}

export const entityGraphFields = {
  async relationships(o: EntityRef, { input }: { input: RelationshipsInput }, ctx: GraphQLContext) {
    const types = relationshipTypes(input.types).filter((t) => t !== '*');
    if (types.length === 0) throw new ValidationError('types must name at least one relationship type (DownstreamOf, OwnedBy, …)');
    const { start, count } = window(input.start, input.count, 100);
    const includeRemoved = input.includeSoftDelete === true;
    const key = JSON.stringify(['relationships', input.direction, types, includeRemoved]);
    const edges = await loader(ctx, key, (urns) => ctx.services.relationships.adjacent(urns, input.direction, types, includeRemoved)).load(o.urn);
    const page = edges.slice(start, start + count);
    return {
      start,
      count: page.length,
      total: edges.length,
      relationships: page.map((e) => ({ type: e.relationship, direction: input.direction, entity: { urn: input.direction === 'OUTGOING' ? e.destination : e.source } })),
    };
  },

  async lineage(o: EntityRef, { input }: { input: LineageInput }, ctx: GraphQLContext) {
    for (const name of ['startTimeMillis', 'endTimeMillis'] as const) {
      if (input[name] !== undefined && input[name] !== null) throw new ValidationError(`${name}: lineage is not filtered by time (urnbase's edges carry no time range); leave it out`);
    }
    const { start, count } = window(input.start, input.count, 100);
    const ghosts = input.includeGhostEntities === true;
    const key = JSON.stringify(['lineage', input.direction, ghosts]);
    const hits = await loader(ctx, key, (urns) => neighboursOf(ctx, urns, input.direction, ghosts)).load(o.urn);
    const page = hits.slice(start, start + count);
    return {
      start,
      count: page.length,
      total: hits.length,
      filtered: 0,
      relationships: page.map((hit) => ({
        type: hit.relationship,
        entity: { urn: hit.urn },
        degree: 1,
        createdOn: null,
        createdActor: null,
        updatedOn: null,
        updatedActor: null,
        // DataHub's answer when the edge does not say (urnbase's never do).
        isManual: false,
        paths: [{ path: [{ urn: o.urn }, { urn: hit.urn }] }],
      })),
    };
  },
};

/** The two fields on every entity object type (defined beside each type's own). */
export const entityGraphResolvers = Object.fromEntries(ENTITY_OBJECT_TYPES.map((type) => [type, entityGraphFields]));
