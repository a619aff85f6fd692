import type { Registry } from '../registry/registry.js';
import type { StoredEdge } from '../store/graph-types.js';
import type { Store } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';
import { lineageSides, type LineageDirection, type LineageKind, type LineageSides } from './lineage-kinds.js';
import { platformOf } from './platform.js';

export type { LineageDirection, LineageKind } from './lineage-kinds.js';

/** What a walk is asked. */
export interface LineageRequest {
  root: string;
  direction: LineageDirection;
  /** Hops at most (an edge each: dataset → job → dataset is two). */
  maxHops: number;
  /** Wall-clock milliseconds the walk may take; past them it stops and says `partial`. */
  budgetMs: number;
  includeRemoved: boolean;
}

/** An entity the walk reached: its least number of hops from the root and one path that short. */
export interface LineageHit {
  urn: string;
  entityType: string;
  /** The relationship of the edge it was first reached by. */
  relationship: string;
  degree: number;
}

/** A page's entity, with one of its shortest paths from the root. */
export interface LineagePathHit extends LineageHit {
  /** Root first, this entity last. */
  path: string[];
}

export interface LineageWalk {
  /** In the order reached: by degree, each degree's entities in no particular order. */
  hits: LineageHit[];
  /** One of the shortest paths to a reached entity, root first. */
  path(urn: string): string[];
  /** The walk stopped at its budget: entities further away may be missing. */
  partial: boolean;
  /** Hops fully explored. */
  hops: number;
}

/** Degree buckets as DataHub's lineage filter names them. */
export type DegreeBucket = '1' | '2' | '3+';
export const DEGREE_BUCKETS: readonly DegreeBucket[] = ['1', '2', '3+'];

/** Which of the reached entities a page holds (each list: any of its values; empty: all). */
export interface LineageFilters {
  entityTypes: readonly string[];
  /** Platform URNs. */
  platforms: readonly string[];
  degrees: readonly DegreeBucket[];
}

export interface LineagePage {
  /** Entities reached that pass the type and platform filters, per degree bucket (before the degree filter). */
  degrees: Record<DegreeBucket, number>;
  /** How many pass every filter. */
  total: number;
  hits: LineagePathHit[];
  /** Entities that pass every filter, by entity type and by platform URN (those with one); empty unless asked for. */
  entityTypes: Record<string, number>;
  platforms: Record<string, number>;
  partial: boolean;
  hops: number;
}

export function degreeBucket(degree: number): DegreeBucket {
  return degree === 1 ? '1' : degree === 2 ? '2' : '3+';
}

/** Frontier URNs per edge read: one statement each way, with a bounded parameter list. */
const BATCH = 500;
/**
 * Batches read at a time: PostgreSQL answers them on several of the pool's connections at once
 * (a 100,000-entity closure is ~400 statements); SQLite reads them one after another all the same.
 */
const AT_ONCE = 4;

interface Reached {
  entityType: string;
  relationship: string;
  degree: number;
  /** The entity it was first reached from (undefined: the root). */
  via: string | undefined;
}

/**
 * Multi-hop lineage: a breadth-first walk of the lineage edges, level by level, each level's
 * frontier read in batches. Every entity is reached once, at its least degree, so cycles end the
 * walk rather than loop it; the budget is checked between batches, and a walk out of time
 * answers what it has, marked partial.
 */
export class Lineage {
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly kinds: readonly LineageKind[],
  ) {}

  /**
   * A walk's entities that pass the filters, a page of them (by degree, then URN). `facets`: also
   * count the passing entities by type and platform (a platform is read from each URN's key,
   * 8–11 µs each on a busy machine: most of a second over a closure of 100,000).
   */
  async page(request: LineageRequest, filters: LineageFilters, start: number, count: number, facets = false): Promise<LineagePage> {
    const walk = await this.walk(request);
    const types = new Set(filters.entityTypes);
    const platforms = new Set(filters.platforms);
    const buckets = new Set(filters.degrees);
    const degrees: Record<DegreeBucket, number> = { '1': 0, '2': 0, '3+': 0 };
    const passing: LineageHit[] = [];
    const entityTypes: Record<string, number> = {};
    const platformCounts: Record<string, number> = {};
    for (const hit of walk.hits) {
      if (types.size > 0 && !types.has(hit.entityType)) continue;
      const platform = platforms.size > 0 || facets ? platformOf(this.registry, hit.urn) : undefined;
      if (platforms.size > 0 && !platforms.has(platform ?? '')) continue;
      const bucket = degreeBucket(hit.degree);
      degrees[bucket]++;
      if (buckets.size > 0 && !buckets.has(bucket)) continue;
      passing.push(hit);
      if (!facets) continue;
      entityTypes[hit.entityType] = (entityTypes[hit.entityType] ?? 0) + 1;
      if (platform !== undefined) platformCounts[platform] = (platformCounts[platform] ?? 0) + 1;
    }
    const hits = sortedSlice(passing, start, count).map((hit) => ({ ...hit, path: walk.path(hit.urn) }));
    return { degrees, total: passing.length, hits, entityTypes, platforms: platformCounts, partial: walk.partial, hops: walk.hops };
  }

  /**
   * One hop of many entities at once: each one's lineage neighbours in the direction, each once
   * (by the first edge to it), in URN order, read BATCH entities a statement each way. What an
   * entity's own lineage counts are (GraphQL's `lineage` field on a page of results).
   */
  async neighbours(urns: readonly string[], direction: LineageDirection, includeRemoved = false): Promise<Map<string, LineageHit[]>> {
    const sides = lineageSides(this.kinds, direction);
    const found = new Map<string, Map<string, LineageHit>>(urns.map((u) => [u, new Map()]));
    const reach = (from: string, to: string, entityType: string, relationship: string) => {
      const near = found.get(from);
      if (near && to !== from && !near.has(to)) near.set(to, { urn: to, entityType, relationship, degree: 1 });
    };
    for (let i = 0; i < urns.length; i += BATCH) {
      const batch = urns.slice(i, i + BATCH);
      const [out, into] = await Promise.all([
        sides.out.length ? this.store.adjacentEdges({ sources: batch, kinds: sides.out, includeRemoved }) : [],
        sides.in.length ? this.store.adjacentEdges({ destinations: batch, kinds: sides.in, includeRemoved }) : [],
      ]);
      for (const e of out) reach(e.source, e.destination, e.destinationType, e.relationship);
      for (const e of into) reach(e.destination, e.source, e.sourceType, e.relationship);
    }
    return new Map([...found].map(([urn, near]) => [urn, [...near.values()].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))]));
  }

  async walk(request: LineageRequest, now: () => number = Date.now): Promise<LineageWalk> {
    const deadline = now() + request.budgetMs;
    const sides = lineageSides(this.kinds, request.direction);
    const reached = new Map<string, Reached>();
    /** Soft-deleted entities met so far: not walked through (the root excepted). */
    const removed = new Set<string>();
    const rootType = parseUrn(request.root).entityType;
    let frontier = [request.root];
    let hops = 0;
    let partial = false;
    walk: while (frontier.length > 0 && hops < request.maxHops) {
      const next: string[] = [];
      for (let i = 0; i < frontier.length; i += BATCH * AT_ONCE) {
        if (now() > deadline) {
          partial = true;
          break walk;
        }
        const batches: string[][] = [];
        for (let j = i; j < Math.min(frontier.length, i + BATCH * AT_ONCE); j += BATCH) batches.push(frontier.slice(j, j + BATCH));
        // The root's step checks its far ends in its own statement: a 1-hop walk is one statement, not two.
        const checked = hops === 0 && !request.includeRemoved;
        const steps = await Promise.all(batches.map((batch) => this.step(batch, (urn) => reached.get(urn)?.entityType ?? rootType, sides, checked)));
        // The entities these batches reach first, each by the first edge to it (batch by batch, in order).
        const found = new Map<string, Reached>();
        const reach = (edge: StoredEdge, from: string, to: string, toType: string) => {
          if (to === request.root || reached.has(to) || found.has(to) || removed.has(to)) return;
          found.set(to, { entityType: toType, relationship: edge.relationship, degree: hops + 1, via: from === request.root ? undefined : from });
        };
        for (const [fromBatch, intoBatch] of steps) {
          for (const e of fromBatch) reach(e, e.source, e.destination, e.destinationType);
          for (const e of intoBatch) reach(e, e.destination, e.source, e.sourceType);
        }
        if (!request.includeRemoved && !checked && found.size > 0) for (const urn of await this.softDeleted([...found.keys()])) removed.add(urn);
        for (const [urn, r] of found) {
          if (removed.has(urn)) continue;
          reached.set(urn, r);
          next.push(urn);
        }
      }
      hops++;
      frontier = next;
    }
    // Reached level by level: already in degree order.
    const hits: LineageHit[] = [];
    for (const [urn, r] of reached) hits.push({ urn, entityType: r.entityType, relationship: r.relationship, degree: r.degree });
    return { hits, partial, hops, path: (urn) => pathTo(urn, request.root, reached) };
  }

  /**
   * One batch's edges: out of it and into it by the kinds that lead away from the root.
   * Only the kinds that can start at the batch's entity types (a dataset has no outgoing downstream
   * kind). Soft-deleted far ends are left out by the statement when `checked`, else left to the
   * walk, which checks each entity once.
   */
  private step(batch: string[], typeOf: (urn: string) => string, sides: LineageSides, checked: boolean): Promise<[StoredEdge[], StoredEdge[]]> {
    const types = new Set(batch.map(typeOf));
    const out = sides.out.filter((k) => k.sourceTypes.some((t) => types.has(t)));
    const into = sides.in.filter((k) => k.destinationTypes.some((t) => types.has(t)));
    return Promise.all([
      out.length ? this.store.adjacentEdges({ sources: batch, kinds: out, includeRemoved: !checked }) : [],
      into.length ? this.store.adjacentEdges({ destinations: batch, kinds: into, includeRemoved: !checked }) : [],
    ]);
  }

  /** Which of the URNs are soft-deleted, asked BATCH at a time, AT_ONCE statements at a time. */
  private async softDeleted(urns: string[]): Promise<string[]> {
    const chunks: string[][] = [];
    for (let i = 0; i < urns.length; i += BATCH) chunks.push(urns.slice(i, i + BATCH));
    const found: string[] = [];
    for (let i = 0; i < chunks.length; i += AT_ONCE) for (const list of await Promise.all(chunks.slice(i, i + AT_ONCE).map((c) => this.store.softDeleted(c)))) found.push(...list);
    return found;
  }
}

/**
 * Hits `start` to `start + count` by degree, then URN, from hits in degree order: only the degrees
 * the page overlaps are sorted (a closure of 100,000 took 155 ms to sort whole; its first page is
 * among the few hundred at degree 1).
 */
function sortedSlice(hits: readonly LineageHit[], start: number, count: number): LineageHit[] {
  const page: LineageHit[] = [];
  const end = Math.min(hits.length, start + count);
  for (let from = 0; from < end; ) {
    let to = from + 1;
    while (to < hits.length && hits[to].degree === hits[from].degree) to++;
    if (to > start) {
      const run = hits.slice(from, to).sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
      page.push(...run.slice(Math.max(0, start - from), end - from));
    }
    from = to;
  }
  return page;
}

function pathTo(urn: string, root: string, reached: ReadonlyMap<string, Reached>): string[] {
  const path = [urn];
  for (let at = reached.get(urn)?.via; at !== undefined; at = reached.get(at)?.via) path.push(at);
  path.push(root);
  return path.reverse();
}
