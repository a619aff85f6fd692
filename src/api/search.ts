import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import type { EntityView, PointOptions, Reader } from '../read/read.js';
import type { EntitySpec } from '../registry/registry.js';
import type { SearchRequest } from '../search/service.js';
import type { SortOrder } from '../store/search-types.js';
import { pageSize } from './params.js';

/**
 * What the list and scroll endpoints share: their query parameters (DataHub's spellings) and
 * body, turned into a SearchRequest; and reading the found entities, in the order found.
 */

export interface SearchQueryParams {
  count?: number;
  scrollId?: string;
  query?: string;
  sort?: string;
  sortCriteria?: string[];
  sortOrder?: SortOrder;
  includeSoftDelete?: boolean;
  systemMetadata?: boolean;
  sliceId?: number;
  sliceMax?: number;
}

const bool = (description: string) => ({ type: 'boolean', description });

/** The query-string schema of list and scroll routes. */
export const searchQuerySchema = {
  count: { type: 'integer', description: 'Page size (default 10, at most 1000)' },
  scrollId: { type: 'string', description: 'Opaque cursor from the previous page' },
  query: { type: 'string', description: 'Search query (Elasticsearch query_string subset; see the README); default *' },
  sort: { type: 'string', description: 'Sort field (deprecated; use sortCriteria)' },
  sortCriteria: { type: 'array', items: { type: 'string' }, description: 'Sort fields: urn (default), name, qualifiedName' },
  sortOrder: { type: 'string', enum: ['ASCENDING', 'DESCENDING'], description: 'Default ASCENDING (relevance: best first)' },
  includeSoftDelete: bool('Include entities whose status.removed is true (default false)'),
  systemMetadata: bool('Include systemMetadata in each aspect'),
  sliceId: { type: 'integer', description: 'With sliceMax: which slice of the result to scroll (0 to sliceMax - 1); slice 0 holds every entity, the others none' },
  sliceMax: { type: 'integer', description: 'With sliceId: how many slices the result is split into (at least 2), as for an Elasticsearch sliced scroll' },
};

const errorSchema = { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } };

/** The schema of the POST scroll routes (v2 and v3 take the same parameters and body). */
export function scrollSchema(tags: string[], summary: string) {
  return {
    tags,
    summary,
    querystring: { type: 'object', properties: searchQuerySchema },
    body: {
      type: 'object',
      description:
        '{entities?: [type…] (default all), aspects?: [name…] (absent: URNs only; []: all), ' +
        'filter?: {and: [{criteria: [{field, condition, values, negated?}]}]} (groups OR\'ed, criteria AND\'ed), ' +
        'sortCriteria?: [{field, order}], facets?: [field…]}',
    },
    response: { 400: errorSchema },
  };
}

/** The body of POST …/entity/scroll. */
export interface ScrollBody {
  entities?: string[];
  /** Absent: URNs only; []: every aspect (DataHub's rule). */
  aspects?: string[];
  filter?: unknown;
  sortCriteria?: Array<{ field: string; order?: SortOrder }>;
  facets?: string[];
}

export function searchRequest(q: SearchQueryParams, types: readonly string[] | undefined, body: ScrollBody | undefined, signal: AbortSignal): SearchRequest {
  return {
    signal,
    types,
    query: q.query,
    filter: body?.filter,
    sort: sortOf(q, body),
    scrollId: q.scrollId,
    count: pageSize(q.count),
    includeSoftDelete: q.includeSoftDelete ?? false,
    facets: body?.facets,
    // As DataHub's: slicing needs both parameters; one alone is ignored.
    ...(q.sliceId !== undefined && q.sliceMax !== undefined ? { slice: { id: q.sliceId, max: q.sliceMax } } : {}),
  };
}

/** URL sort parameters win over the body's sortCriteria, as in DataHub; the first criterion sorts. */
function sortOf(q: SearchQueryParams, body: ScrollBody | undefined): SearchRequest['sort'] {
  const field = q.sortCriteria?.[0] ?? q.sort;
  if (field !== undefined) return { field, order: q.sortOrder ?? 'ASCENDING' };
  const first = body?.sortCriteria?.[0];
  return first ? { field: first.field, order: first.order ?? 'ASCENDING' } : undefined;
}

/** Checks the scroll body's shape (its filter is checked where it is resolved). */
export function scrollBody(raw: unknown): ScrollBody {
  const body = raw ?? {};
  if (!isRecord(body)) throw new ValidationError('The body must be a JSON object: {entities?, aspects?, filter?, sortCriteria?, facets?}');
  const strings = (name: string): string[] | undefined => {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new ValidationError(`${name} must be a list of strings`);
    return value as string[];
  };
  const sortCriteria = body.sortCriteria;
  if (sortCriteria !== undefined && (!Array.isArray(sortCriteria) || !sortCriteria.every((c) => isRecord(c) && typeof c.field === 'string' && (c.order === undefined || c.order === 'ASCENDING' || c.order === 'DESCENDING')))) {
    throw new ValidationError('sortCriteria must be a list of {field, order?: ASCENDING|DESCENDING}');
  }
  return {
    entities: strings('entities'),
    aspects: strings('aspects'),
    filter: body.filter,
    sortCriteria: sortCriteria as ScrollBody['sortCriteria'],
    facets: strings('facets'),
  };
}

/**
 * The found entities with the asked aspects (all when absent or empty), in the order found; ones
 * deleted meanwhile are left out. `points`: timeseries aspects as their latest points (v3). Aspect names resolve per entity type (canonical or lower-case).
 */
export async function foundEntities(reader: Reader, urns: readonly string[], aspects: readonly string[] | undefined, options: PointOptions = {}): Promise<EntityView[]> {
  const byType = new Map<EntitySpec, string[]>();
  for (const urn of urns) {
    const { entity } = reader.entityOf(urn);
    const list = byType.get(entity);
    if (list) list.push(urn);
    else byType.set(entity, [urn]);
  }
  const found = new Map<string, EntityView>();
  for (const [entity, list] of byType) {
    const asked = aspects && aspects.length > 0 ? aspects : undefined;
    const shown = asked && new Set(reader.aspectNames(entity, asked) ?? []);
    for (const [urn, view] of await reader.getEntities(list, shown, options)) {
      // Keys are always read (so that every entity is found); they are shown only when asked for.
      found.set(urn, shown ? { ...view, aspects: new Map([...view.aspects].filter(([name]) => shown.has(name))) } : view);
    }
  }
  return urns.flatMap((urn) => found.get(urn) ?? []);
}
