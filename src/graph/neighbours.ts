import type { EdgeKind } from '../store/graph-types.js';
import type { Store } from '../store/store.js';
import type { LineageDirection, LineageKind } from './lineage.js';

/**
 * Which edges make one entity another's lineage neighbour in a direction: edges out of the entity
 * whose destination is that way (a dataset is `DownstreamOf` its upstream), and edges into it
 * whose source is (a job `Produces` the dataset: the job is upstream). Lineage walks, metadata
 * tests and search filters all decide it here, so they agree on what "upstream" means.
 */
export interface LineageSides {
  /** Edges out of the entity: the neighbour is the destination. */
  out: EdgeKind[];
  /** Edges into the entity: the neighbour is the source. */
  in: EdgeKind[];
}

export function lineageSides(kinds: readonly LineageKind[], direction: LineageDirection): LineageSides {
  const upstream = direction === 'UPSTREAM';
  const plain = (k: LineageKind): EdgeKind => ({ relationship: k.relationship, sourceTypes: k.sourceTypes, destinationTypes: k.destinationTypes });
  return { out: kinds.filter((k) => k.upstream === upstream).map(plain), in: kinds.filter((k) => k.upstream !== upstream).map(plain) };
}

/** Entities whose edges one read asks for: a bounded parameter list, as the lineage walk's batches. */
const BATCH = 500;

/**
 * One-hop lineage neighbours of many entities at once, from the edges table: a level of a walk
 * that the caller drives (metadata tests load one level per evaluation round). Edges whose other
 * end is soft-deleted are left out, as the lineage API leaves them out by default.
 */
export class LineageNeighbours {
  constructor(
    private readonly store: Store,
    private readonly kinds: readonly LineageKind[],
  ) {}

  /** Each entity's neighbours in the direction, each once, in URN order ([] when it has none). */
  async of(urns: readonly string[], direction: LineageDirection): Promise<Map<string, string[]>> {
    const sides = lineageSides(this.kinds, direction);
    const found = new Map<string, Set<string>>(urns.map((u) => [u, new Set()]));
    for (let i = 0; i < urns.length; i += BATCH) {
      const batch = urns.slice(i, i + BATCH);
      const [out, into] = await Promise.all([
        sides.out.length ? this.store.adjacentEdges({ sources: batch, kinds: sides.out }) : [],
        sides.in.length ? this.store.adjacentEdges({ destinations: batch, kinds: sides.in }) : [],
      ]);
      for (const e of out) found.get(e.source)?.add(e.destination);
      for (const e of into) found.get(e.destination)?.add(e.source);
    }
    return new Map([...found].map(([urn, set]) => [urn, [...set].sort()]));
  }
}
