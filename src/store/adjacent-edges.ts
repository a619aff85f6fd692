import { entityTypeOf } from '../urn/urn.js';
import type { EdgeFilter, StoredEdge } from './graph-types.js';

/**
 * A walk's step (adjacentEdges) in two parts. The SQL reads edges by their ends and relationship
 * names alone, which the edge indexes hold (edges_in: destination, relationship, source; the key:
 * source, relationship, destination): no table row is read for an edge. The ends' entity types,
 * which the type filters and kinds also ask about, are then the types their URNs name (GraphEdges
 * draws every edge so), tested here. Reading the type columns cost a row lookup an edge: most of
 * a 3-hop walk's time at 100,000 datasets.
 */

/** The relationship names the SQL keeps (undefined: any; empty: none). */
export function stepRelationships(filter: EdgeFilter): readonly string[] | undefined {
  const named = filter.kinds && [...new Set(filter.kinds.map((k) => k.relationship))];
  if (!filter.types?.length) return named;
  return named ? named.filter((name) => filter.types!.includes(name)) : filter.types;
}

/** The rows (source, relationship, destination) that pass the filter's type tests and kinds, as edges. */
export function typedEdges(filter: EdgeFilter, rows: ReadonlyArray<readonly [string, string, string]>): StoredEdge[] {
  const sourceTypes = filter.sourceTypes?.length ? new Set(filter.sourceTypes) : undefined;
  const destinationTypes = filter.destinationTypes?.length ? new Set(filter.destinationTypes) : undefined;
  const kinds = filter.kinds && kindsByRelationship(filter);
  const edges: StoredEdge[] = [];
  for (const [source, relationship, destination] of rows) {
    const sourceType = entityTypeOf(source);
    const destinationType = entityTypeOf(destination);
    if (sourceTypes && !sourceTypes.has(sourceType)) continue;
    if (destinationTypes && !destinationTypes.has(destinationType)) continue;
    if (kinds && !kinds.get(relationship)?.some((k) => k.sourceTypes.has(sourceType) && k.destinationTypes.has(destinationType))) continue;
    edges.push({ source, sourceType, relationship, destination, destinationType });
  }
  return edges;
}

function kindsByRelationship(filter: EdgeFilter): Map<string, Array<{ sourceTypes: Set<string>; destinationTypes: Set<string> }>> {
  const kinds = new Map<string, Array<{ sourceTypes: Set<string>; destinationTypes: Set<string> }>>();
  for (const k of filter.kinds ?? []) {
    const list = kinds.get(k.relationship) ?? [];
    list.push({ sourceTypes: new Set(k.sourceTypes), destinationTypes: new Set(k.destinationTypes) });
    kinds.set(k.relationship, list);
  }
  return kinds;
}
