/**
 * The graph as the store sees it: edges the write path adds and removes with the aspects naming
 * them, and the queries of the relationship APIs. Store-neutral; each store keeps them in an
 * `edges` table indexed both ways.
 */

/** What an edge carries beside its ends: the scalar fields of the record that names it. */
export type EdgeProperties = Record<string, string | number | boolean>;

/**
 * A graph edge: `source` points to `destination` by `relationship` (DataHub's `@Relationship`
 * name, e.g. a dataset is `DownstreamOf` its upstream). An aspect's edges start at its entity,
 * except column lineage's, which run from schema field to schema field.
 */
export interface Edge {
  source: string;
  sourceType: string;
  relationship: string;
  destination: string;
  destinationType: string;
  properties?: EdgeProperties;
}

/**
 * How one aspect's edges change in a commit: the edges its old value named and the new one does
 * not, and the new or changed ones. The aspect (`owner`, `aspect`) is part of an edge's key, so
 * two aspects naming the same edge keep it until both stop.
 */
export interface EdgeWrite {
  owner: string;
  aspect: string;
  remove: Edge[];
  upsert: Edge[];
}

/** Which way from `urn` the edges go: out of it (it is the source) or into it (the destination). */
export type EdgeDirection = 'OUTGOING' | 'INCOMING';

/**
 * Edges to read: those of one entity in one direction, or (no urn) every edge of the given
 * relationship types. Each edge once, whatever number of aspects name it, in key order: by
 * relationship, then the other end (of one entity), or by source and destination (of a type).
 */
export interface EdgeQuery {
  urn?: string;
  direction: EdgeDirection;
  /** Relationship names (none: all). Required without urn. */
  types?: readonly string[];
  /** Entity types at the other end (of one entity), or at either end (of a type). */
  entityTypes?: readonly string[];
  /** Keep edges whose other end (either end, without urn) is soft-deleted. */
  includeRemoved?: boolean;
  /** Edges strictly after this one, in the query's order. */
  after?: EdgeCursor;
  offset?: number;
  limit: number;
}

/** A position in an edge listing: the last edge given. */
export interface EdgeCursor {
  source: string;
  relationship: string;
  destination: string;
}

export interface StoredEdge {
  source: string;
  sourceType: string;
  relationship: string;
  destination: string;
  destinationType: string;
}
