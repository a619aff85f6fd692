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

/** The owner as an edge row keeps it: '' when it is the edge's source (all but column lineage's edges). */
export function storedOwner(owner: string, edge: Pick<Edge, 'source'>): string {
  return owner === edge.source ? '' : owner;
}

/** Which way from an entity the edges go: out of it (it is the source) or into it (the destination). */
export type EdgeDirection = 'OUTGOING' | 'INCOMING';

/**
 * Which edges to read, each once whatever number of aspects name it, in (relationship, source,
 * destination) order. Every filter given must hold; a list holds when any of its values does.
 */
export interface EdgeFilter {
  /** Edges out of these; with neither `types` nor `kinds`, every edge is scanned (the key starts with the relationship). */
  sources?: readonly string[];
  destinations?: readonly string[];
  /** Relationship names. */
  types?: readonly string[];
  sourceTypes?: readonly string[];
  destinationTypes?: readonly string[];
  /** Only edges of these kinds (DataHub's lineage edges: a relationship between given entity types). */
  kinds?: readonly EdgeKind[];
  /** Keep edges with a soft-deleted end; the ends named by `sources` or `destinations` are never checked. */
  includeRemoved?: boolean;
}

/** A page of the filter's edges: after a cursor or an offset. */
export interface EdgeQuery extends EdgeFilter {
  /** Edges strictly after this one. */
  after?: EdgeCursor;
  offset?: number;
  limit: number;
}

/** A relationship from entities of some types to entities of others. */
export interface EdgeKind {
  relationship: string;
  sourceTypes: readonly string[];
  destinationTypes: readonly string[];
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
