import type { LineageDirection } from '../graph/lineage.js';
import type { LineageNeighbours } from '../graph/neighbours.js';

/**
 * Lineage steps of property paths: `__upstreams` and `__downstreams` go from an entity to the
 * entities upstream or downstream of it, within DEFAULT_LINEAGE_HOPS hops, or within N with
 * `__upstreams:N`; the rest of the path is read on each of them
 * (`__upstreams.globalTags.tags.tag`). Hops count edges, as the lineage API counts them: dataset →
 * job → dataset is two.
 */

/** Hops a step takes unless it says: ten edges, five datasets deep through jobs. */
export const DEFAULT_LINEAGE_HOPS = 10;
/** The most a step may ask for. */
export const MAX_LINEAGE_HOPS = 100;
/**
 * Entities one step may reach. Past it the step is not judged on part of its lineage: the test
 * fails on that entity, saying so (see LineageLimitError).
 */
export const MAX_LINEAGE_ENTITIES = 1_000;

export interface LineageStep {
  direction: LineageDirection;
  maxHops: number;
}

const STEP = /^__(upstreams|downstreams)(?::(.*))?$/;

/** Whether a path segment is meant as a lineage step (valid or not). */
export function isLineageStep(segment: string): boolean {
  return STEP.test(segment);
}

/** The step a segment spells, or why it spells none. */
export function parseLineageStep(segment: string): LineageStep | string {
  const match = STEP.exec(segment);
  if (!match) return `${segment} is not a lineage step`;
  const [, way, hops] = match;
  const direction: LineageDirection = way === 'upstreams' ? 'UPSTREAM' : 'DOWNSTREAM';
  if (hops === undefined) return { direction, maxHops: DEFAULT_LINEAGE_HOPS };
  if (!/^[0-9]{1,3}$/.test(hops) || Number(hops) < 1 || Number(hops) > MAX_LINEAGE_HOPS) {
    return `__${way}:N takes hops N from 1 to ${MAX_LINEAGE_HOPS}, got ${JSON.stringify(hops)}`;
  }
  return { direction, maxHops: Number(hops) };
}

/**
 * A step that reached more than MAX_LINEAGE_ENTITIES entities: its condition cannot be decided on
 * part of them, so the engine fails the test on that entity and explains why.
 */
export class LineageLimitError extends Error {
  override name = 'LineageLimitError';
}

/** Marks a reach whose edges are not all loaded yet (the caller loads them and evaluates again). */
export const NOT_REACHED = Symbol('not reached');

export interface Reach {
  /** Reached entities, nearest first (a level in URN order), the root never among them. */
  urns: string[];
  /** More than MAX_LINEAGE_ENTITIES were reached: `urns` holds the first of them only. */
  truncated: boolean;
}

/**
 * The lineage of one evaluation (a request, a page of a catalog run), read a level at a time: a
 * reach that needs edges not loaded yet notes the entities whose edges it needs and answers
 * NOT_REACHED; fetch() loads them all in one read per direction. Neighbours are kept for the
 * evaluation, so entities sharing lineage read it once.
 */
export class LineageReaches {
  private readonly adjacent: Record<LineageDirection, Map<string, string[]>> = { UPSTREAM: new Map(), DOWNSTREAM: new Map() };
  private readonly wanted: Record<LineageDirection, Set<string>> = { UPSTREAM: new Set(), DOWNSTREAM: new Set() };
  private readonly reached = new Map<string, Reach>();

  constructor(private readonly neighbours: LineageNeighbours) {}

  /** The entities within the step's hops of the root, breadth first; NOT_REACHED until its edges are loaded. */
  reach(root: string, step: LineageStep): Reach | typeof NOT_REACHED {
    const key = `${step.direction}\u0000${step.maxHops}\u0000${root}`;
    const known = this.reached.get(key);
    if (known) return known;
    const adjacent = this.adjacent[step.direction];
    const seen = new Set([root]);
    const urns: string[] = [];
    let frontier = [root];
    for (let hop = 0; hop < step.maxHops && frontier.length > 0; hop++) {
      // A level's missing edges are all noted before answering, so they load in one read.
      const missing = frontier.filter((urn) => !adjacent.has(urn));
      if (missing.length > 0) {
        for (const urn of missing) this.wanted[step.direction].add(urn);
        return NOT_REACHED;
      }
      const next: string[] = [];
      for (const urn of frontier) {
        for (const neighbour of adjacent.get(urn)!) {
          if (seen.has(neighbour)) continue;
          seen.add(neighbour);
          next.push(neighbour);
        }
      }
      next.sort();
      urns.push(...next);
      if (urns.length > MAX_LINEAGE_ENTITIES) return this.remember(key, { urns: urns.slice(0, MAX_LINEAGE_ENTITIES), truncated: true });
      frontier = next;
    }
    return this.remember(key, { urns, truncated: false });
  }

  /** Whether reaches noted edges to load since the last fetch. */
  get pending(): boolean {
    return this.wanted.UPSTREAM.size > 0 || this.wanted.DOWNSTREAM.size > 0;
  }

  /** Loads the neighbours of the entities noted. */
  async fetch(): Promise<void> {
    for (const direction of ['UPSTREAM', 'DOWNSTREAM'] as const) {
      const urns = [...this.wanted[direction]];
      this.wanted[direction].clear();
      if (urns.length === 0) continue;
      for (const [urn, neighbours] of await this.neighbours.of(urns, direction)) this.adjacent[direction].set(urn, neighbours);
    }
  }

  private remember(key: string, reach: Reach): Reach {
    this.reached.set(key, reach);
    return reach;
  }
}
