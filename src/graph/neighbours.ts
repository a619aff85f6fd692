import type { Store } from '../store/store.js';
import { lineageSides, type LineageDirection, type LineageKind } from './lineage-kinds.js';

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
