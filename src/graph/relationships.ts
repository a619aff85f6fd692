import { ValidationError } from '../errors.js';
import type { EdgeCursor, EdgeDirection, EdgeFilter, StoredEdge } from '../store/graph-types.js';
import type { Store } from '../store/store.js';

/** Which edges (the store's EdgeFilter). */
export type RelationshipScope = EdgeFilter;

/** One entity's edges in one direction: out of it, or into it. */
export function edgesOf(urn: string, direction: EdgeDirection, scope: Omit<RelationshipScope, 'sources' | 'destinations'> = {}): RelationshipScope {
  return direction === 'OUTGOING' ? { ...scope, sources: [urn] } : { ...scope, destinations: [urn] };
}

/** Entities a statement of Relationships.adjacent reads, as the lineage walk reads them. */
const ADJACENT_BATCH = 500;

/** The end of an edge that is not the entity asked about. */
export function otherEnd(edge: StoredEdge, direction: EdgeDirection): string {
  return direction === 'OUTGOING' ? edge.destination : edge.source;
}

/**
 * The graph's one-hop reads, as the relationship APIs ask them: a page by offset with the total
 * (DataHub's RelatedEntitiesResult) or by scroll id. The edges are as the latest aspects name them,
 * committed with them: a read never sees an edge the aspects no longer hold.
 */
export class Relationships {
  /** @param names every relationship the graph can hold (GraphEdges.relationshipNames) */
  constructor(
    private readonly store: Store,
    private readonly names: readonly string[],
  ) {}

  async page(scope: RelationshipScope, start: number, count: number): Promise<{ total: number; edges: StoredEdge[] }> {
    scope = this.named(scope);
    const [total, edges] = await Promise.all([this.store.countEdges(scope), this.store.readEdges({ ...scope, offset: start, limit: count })]);
    return { total, edges };
  }

  /**
   * A page after the scroll id's edge, and the scroll id of the next page (null: none). Several
   * scopes scroll as their union: each read in the same order past the same edge, merged.
   */
  async scroll(scopes: RelationshipScope | readonly RelationshipScope[], count: number, scrollId: string | undefined): Promise<{ edges: StoredEdge[]; scrollId: string | null }> {
    const after = decodeEdgeScrollId(scrollId);
    const reads = await Promise.all([scopes].flat().map((scope) => this.store.readEdges({ ...this.named(scope), ...(after ? { after } : {}), limit: count + 1 })));
    const rows = reads.length === 1 ? reads[0] : union(reads);
    const edges = rows.slice(0, count);
    const last = edges[edges.length - 1];
    return { edges, scrollId: rows.length > count ? encodeEdgeScrollId(last) : null };
  }

  /**
   * The edges of many entities in one direction, of the relationship types, each entity's by
   * relationship then other end: a statement per ADJACENT_BATCH entities, not one per entity
   * (a page of results asking each its relationships).
   */
  async adjacent(urns: readonly string[], direction: EdgeDirection, types: readonly string[], includeRemoved: boolean): Promise<Map<string, StoredEdge[]>> {
    const found = new Map<string, StoredEdge[]>(urns.map((u) => [u, []]));
    for (let i = 0; i < urns.length; i += ADJACENT_BATCH) {
      const batch = urns.slice(i, i + ADJACENT_BATCH);
      const scope = direction === 'OUTGOING' ? { sources: batch } : { destinations: batch };
      for (const e of await this.store.adjacentEdges({ ...scope, types, includeRemoved })) found.get(direction === 'OUTGOING' ? e.source : e.destination)?.push(e);
    }
    const order = (e: StoredEdge) => `${e.relationship}\u0000${otherEnd(e, direction)}`;
    for (const list of found.values()) list.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    return found;
  }

  /** Edges are keyed by relationship first: a read out of entities of any relationship names them all. */
  private named(scope: RelationshipScope): RelationshipScope {
    return scope.sources?.length && !scope.types?.length && !scope.kinds ? { ...scope, types: this.names } : scope;
  }
}

/** Edge listings in (relationship, source, destination) order merged into one, each edge once. */
function union(listings: readonly StoredEdge[][]): StoredEdge[] {
  const byKey = new Map<string, StoredEdge>();
  for (const edge of listings.flat()) byKey.set(JSON.stringify([edge.relationship, edge.source, edge.destination]), edge);
  // The stores order text by its bytes (SQLite's default, PostgreSQL's "C"), and so does this.
  const sortKey = (e: StoredEdge) => Buffer.from(`${e.relationship}\u0000${e.source}\u0000${e.destination}`, 'utf8');
  return [...byKey.values()].map((e) => ({ e, key: sortKey(e) })).sort((a, b) => Buffer.compare(a.key, b.key)).map(({ e }) => e);
}

/**
 * Relationship names as requests give them (repeated, or comma-separated), each checked: DataHub's
 * are identifiers (`DownstreamOf`, `consumesField`), and anything else (a NUL byte, which
 * PostgreSQL cannot hold in text) is refused rather than looked up.
 */
export function relationshipTypes(raw: readonly string[] | undefined): string[] {
  const names = [...new Set((raw ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))];
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(name) && name !== '*') throw new ValidationError(`Invalid relationship type ${JSON.stringify(name.slice(0, 100))}: a name such as DownstreamOf`);
  }
  return names;
}

/** A direction as DataHub's clients write it, any case; refused otherwise. */
export function edgeDirection(text: string | undefined, fallback?: EdgeDirection): EdgeDirection {
  if (text === undefined && fallback) return fallback;
  const upper = text?.toUpperCase();
  if (upper === 'INCOMING' || upper === 'OUTGOING') return upper;
  throw new ValidationError(`direction must be INCOMING or OUTGOING, got ${text === undefined ? 'none' : JSON.stringify(text)}`);
}

/** Scroll ids are opaque to clients: the last edge of the previous page, base64url-encoded. */
function encodeEdgeScrollId(edge: EdgeCursor): string {
  return Buffer.from(JSON.stringify([edge.relationship, edge.source, edge.destination]), 'utf8').toString('base64url');
}

function decodeEdgeScrollId(scrollId: string | undefined): EdgeCursor | undefined {
  if (scrollId === undefined || scrollId === '') return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
    // Strings only, and none with a NUL byte (PostgreSQL text cannot hold one).
    if (Array.isArray(decoded) && decoded.length === 3 && decoded.every((p) => typeof p === 'string' && !p.includes('\u0000'))) {
      const [relationship, source, destination] = decoded as string[];
      return { relationship, source, destination };
    }
  } catch {
    // the error below
  }
  throw new ValidationError(`Invalid scrollId: ${scrollId}`);
}
