import type { EdgeKind } from '../store/graph-types.js';

/** Which way a lineage walk goes from its root. */
export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

/**
 * A lineage relationship between entity types, and which way it points: `upstream` when its
 * destination is upstream of its source (a dataset is `DownstreamOf` its upstream, a job
 * `Consumes` its input), false when downstream (a job `Produces` its output: DataHub's
 * `isUpstream: false`).
 */
export interface LineageKind extends EdgeKind {
  upstream: boolean;
}

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
