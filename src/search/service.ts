import { ValidationError } from '../errors.js';
import type { LineageKind } from '../graph/lineage.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import type { Condition, SearchResult, SortOrder } from '../store/search-types.js';
import type { Store } from '../store/store.js';
import { filterCondition, queryConditions } from './criteria.js';
import { checkSearchSize } from './size.js';
import type { SearchFields } from './fields.js';
import { parseQuery } from './query-string.js';
import { lineageFields, type LineageFields } from './lineage-fields.js';
import { FieldResolver, type PropertyLookup } from './resolve.js';
import { decodeScrollId, encodeScrollId } from './scroll.js';

export interface SearchRequest {
  /** Entity type names; all types when absent. */
  types?: readonly string[];
  /** The query language (see query-string.ts); `*` or absent: everything. */
  query?: string;
  /** A scroll body's filter (see criteria.ts). */
  filter?: unknown;
  /** Absent: by relevance when the query has free words, else by URN. */
  sort?: { field: string; order: SortOrder };
  scrollId?: string;
  count: number;
  includeSoftDelete: boolean;
  facets?: readonly string[];
  /** Fires when the client has gone (api/client-gone.ts): the search is stopped where it can be. */
  signal?: AbortSignal;
  /** One of `max` slices of the result, for clients that scroll slices in parallel (see search()). */
  slice?: { id: number; max: number };
}

export interface SearchPage {
  urns: string[];
  scrollId?: string;
  totalCount: number;
  facets: SearchResult['facets'];
}

/** Search over the index: a query and filters resolved to conditions, answered a page at a time. */
export class SearchService {
  private readonly lineage: LineageFields;

  constructor(
    private readonly registry: Registry,
    private readonly fields: SearchFields,
    private readonly properties: PropertyLookup,
    private readonly store: Store,
    /** The lineage relationships (GraphEdges.walkKinds), for the `upstreams` and `downstreams` filters. */
    lineageKinds: readonly LineageKind[],
  ) {
    this.lineage = lineageFields(lineageKinds);
  }

  async search(request: SearchRequest): Promise<SearchPage> {
    const types = this.types(request.types);
    const resolver = new FieldResolver(this.fields, this.properties, request.includeSoftDelete, this.lineage);
    const parsed = parseQuery(request.query ?? '*');
    checkSearchSize(parsed, request.filter);
    const query = await queryConditions(parsed, resolver);
    const filter = await filterCondition(request.filter, resolver);
    const all = [...query.conditions, ...(filter.kind === 'all' ? [] : [filter])];
    const condition: Condition = all.length === 0 ? { kind: 'all' } : all.length === 1 ? all[0] : { kind: 'and', children: all };
    const facets = await Promise.all((request.facets ?? []).map((f) => resolver.facetField(f)));
    // A client that left while the search waited its turn is not searched for.
    if (request.signal?.aborted) throw request.signal.reason;
    // Slices must partition the result: each entity in exactly one. Slice 0 holds them all and
    // the others none, which keeps every scroll guarantee (a hash split would need both stores'
    // plans to walk it).
    if (request.slice && checkedSlice(request.slice) > 0) {
      return { urns: [], totalCount: 0, facets: (request.facets ?? []).map((field) => ({ field, aggregations: {} })) };
    }

    const byRelevance = !request.sort && query.rank.length > 0;
    const sortField = request.sort ? await resolver.indexField(request.sort.field, 'sort') : byRelevance ? 'relevance' : 'urn';
    const order = request.sort?.order ?? (byRelevance ? 'DESCENDING' : 'ASCENDING');
    const sortKey = `${sortField}:${order}`;
    const result = await this.store.search({
      types: types.map((t) => ({ name: t.name, keyAspect: t.keyAspect.name })),
      condition,
      // Asking about `removed` is asking to see removed entities.
      includeRemoved: request.includeSoftDelete || resolver.named.has('removed'),
      sort: { by: sortField, order },
      rank: query.rank,
      after: decodeScrollId(request.scrollId, sortKey),
      count: request.count,
      facets,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return {
      urns: result.urns,
      ...(result.next ? { scrollId: encodeScrollId(sortKey, result.next) } : {}),
      totalCount: result.total,
      // Facets are answered under the names they were asked by.
      facets: result.facets.map((f, i) => ({ field: request.facets![i], aggregations: f.aggregations })),
    };
  }

  private types(names: readonly string[] | undefined): EntitySpec[] {
    if (!names || names.length === 0) return this.registry.entityTypes();
    return [...new Set(names)].map((name) => {
      const spec = this.registry.entityType(name);
      if (!spec) throw new ValidationError(`Unknown entity type ${name}`);
      return spec;
    });
  }
}

/** The slice's id, checked as Elasticsearch checks a sliced scroll. */
function checkedSlice({ id, max }: { id: number; max: number }): number {
  if (max <= 1) throw new ValidationError(`sliceMax must be greater than 1, got ${max}`);
  if (id < 0 || id >= max) throw new ValidationError(`sliceId must be at least 0 and less than sliceMax (${max}), got ${id}`);
  return id;
}
