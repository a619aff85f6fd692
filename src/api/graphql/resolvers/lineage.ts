import { ValidationError } from '../../../errors.js';
import { DEGREE_BUCKETS, type LineagePage } from '../../../graph/lineage.js';
import { LIMITS } from '../../../limits.js';
import { parseUrn } from '../../../urn/urn.js';
import { DEFAULT_BUDGET_MS, MAX_HOPS } from '../../lineage.js';
import type { GraphQLContext } from '../context.js';
import type { AndFilterInput, FacetFilterInput } from '../filters.js';
import { lineageFilters } from '../lineage-filters.js';

interface LineageInput {
  urn?: string | null;
  direction: 'UPSTREAM' | 'DOWNSTREAM';
  types?: readonly string[] | null;
  query?: string | null;
  count?: number | null;
  filters?: readonly FacetFilterInput[] | null;
  orFilters?: readonly AndFilterInput[] | null;
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  searchFlags?: { maxAggValues?: number | null; skipAggregates?: boolean | null; includeSoftDeleted?: boolean | null; groupingSpec?: GroupingSpec | null } | null;
  lineageFlags?: { entitiesExploredPerHopLimit?: number | null; startTimeMillis?: number | null; endTimeMillis?: number | null; ignoreAsHops?: readonly unknown[] | null } | null;
  viewUrn?: string | null;
  sortInput?: unknown;
}

interface GroupingSpec {
  groupingCriteria?: ReadonlyArray<{ baseEntityType?: string | null; groupingEntityType: string }> | null;
}

/** A cursor: the offset of the next page, under a prefix that marks it as ours. */
const CURSOR = 'lineage:';

/**
 * searchAcrossLineage and scrollAcrossLineage: thin translations of DataHub's inputs into a page
 * of the Lineage service (the walk of GET /openapi/v3/lineage, to its hop limit and time budget),
 * and of the page into DataHub's results. A walk past its budget answers what it reached, with
 * isPartial true, as the REST lineage answers partial.
 */
export const lineageResolvers = {
  async searchAcrossLineage(_: unknown, { input }: { input: LineageInput & { start?: number | null } }, ctx: GraphQLContext) {
    const start = input.start ?? 0;
    if (start < 0) throw new ValidationError(`start must be at least 0, got ${start}`);
    const count = pageCount(input.count);
    const page = await walk(ctx, input, start, count);
    return { start, ...answer(page, input, ctx) };
  },

  async scrollAcrossLineage(_: unknown, { input }: { input: LineageInput & { scrollId?: string | null } }, ctx: GraphQLContext) {
    const start = offsetOf(input.scrollId);
    const count = pageCount(input.count);
    const page = await walk(ctx, input, start, count);
    // A page of none cannot move the cursor on: a client following it would never stop.
    const next = start + page.hits.length;
    return { nextScrollId: count > 0 && next < page.total ? `${CURSOR}${next}` : null, ...answer(page, input, ctx) };
  },
};

/** A page size: 10 when absent, at most LIMITS.graphqlResults (a larger one is cut to it, as DataHub does). */
function pageCount(count: number | null | undefined): number {
  if (count === undefined || count === null) return 10;
  if (count < 0) throw new ValidationError(`count must be at least 0, got ${count}`);
  return Math.min(count, LIMITS.graphqlResults);
}

function offsetOf(scrollId: string | null | undefined): number {
  if (scrollId === undefined || scrollId === null || scrollId === '') return 0;
  const offset = scrollId.startsWith(CURSOR) ? Number(scrollId.slice(CURSOR.length)) : NaN;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ValidationError(`scrollId: ${JSON.stringify(scrollId.slice(0, 100))} is not a cursor of scrollAcrossLineage (send the nextScrollId of the previous page)`);
  return offset;
}

async function walk(ctx: GraphQLContext, input: LineageInput, start: number, count: number): Promise<LineagePage> {
  refuseUnserved(input);
  if (input.urn === undefined || input.urn === null) throw new ValidationError('urn: the entity to walk from is required');
  const parsed = parseUrn(input.urn);
  ctx.services.registry.checkKey(parsed, ctx.services.registry.entityOf(parsed));
  const filters = lineageFilters(input.types, input.orFilters, input.filters, ctx.types, ctx.services.registry);
  if (filters === undefined) return { degrees: { '1': 0, '2': 0, '3+': 0 }, total: 0, hits: [], entityTypes: {}, platforms: {}, partial: false, hops: 0 };
  const request = { root: parsed.text, direction: input.direction, maxHops: MAX_HOPS, budgetMs: DEFAULT_BUDGET_MS, includeRemoved: input.searchFlags?.includeSoftDeleted === true };
  return ctx.services.lineage.page(request, filters, start, count, input.searchFlags?.skipAggregates !== true);
}

/** What DataHub's lineage inputs carry that urnbase does not apply: refused by name rather than ignored. */
function refuseUnserved(input: LineageInput): void {
  const query = input.query?.trim() ?? '';
  if (query !== '' && query !== '*') throw new ValidationError(`query: text queries over lineage are not served, got ${JSON.stringify(query.slice(0, 100))}; send * and filter with types and orFilters`);
  const flags = input.lineageFlags ?? {};
  for (const [name, value] of [['startTimeMillis', input.startTimeMillis], ['endTimeMillis', input.endTimeMillis], ['lineageFlags.startTimeMillis', flags.startTimeMillis], ['lineageFlags.endTimeMillis', flags.endTimeMillis]] as const) {
    if (value !== undefined && value !== null) throw new ValidationError(`${name}: lineage is not filtered by time (urnbase's edges carry no time range); leave it out`);
  }
  if ((flags.ignoreAsHops?.length ?? 0) > 0) throw new ValidationError('lineageFlags.ignoreAsHops: not served; every entity counts as a hop');
  const limit = flags.entitiesExploredPerHopLimit;
  if (limit !== undefined && limit !== null && limit < 1) throw new ValidationError(`lineageFlags.entitiesExploredPerHopLimit must be at least 1, got ${limit}`);
  // The SDK's column lineage asks schema fields to be grouped as schema fields: no grouping at all.
  const grouped = (input.searchFlags?.groupingSpec?.groupingCriteria ?? []).find((c) => c.groupingEntityType !== 'SCHEMA_FIELD' || (c.baseEntityType ?? 'SCHEMA_FIELD') !== 'SCHEMA_FIELD');
  if (grouped) throw new ValidationError(`searchFlags.groupingSpec: grouping ${grouped.baseEntityType ?? 'every type'} as ${grouped.groupingEntityType} is not served; lineage results are never grouped`);
  if (input.viewUrn !== undefined && input.viewUrn !== null) throw new ValidationError("viewUrn: views are not served by urnbase; send the view's filters in orFilters instead");
  if (input.sortInput !== undefined && input.sortInput !== null) throw new ValidationError('sortInput: lineage results are ordered by degree, then URN; sorting is not served');
}

function answer(page: LineagePage, input: LineageInput, ctx: GraphQLContext) {
  const explored = !page.partial;
  return {
    count: page.hits.length,
    total: page.total,
    isPartial: page.partial,
    searchResults: page.hits.map((hit) => ({
      entity: { urn: hit.urn },
      insights: [],
      matchedFields: [],
      paths: [{ path: hit.path.map((urn) => ({ urn })) }],
      degree: hit.degree,
      degrees: [hit.degree],
      explored,
      truncatedChildren: false,
      ignoredAsHop: false,
    })),
    facets: input.searchFlags?.skipAggregates ? [] : facets(page, input.searchFlags?.maxAggValues ?? undefined, ctx),
  };
}

/** degree (the entities reached past the type and platform filters, by degree, in degree order), _entityType and platform (those passing every filter). */
function facets(page: LineagePage, most: number | undefined, ctx: GraphQLContext) {
  const facet = (field: string, displayName: string, counts: Array<[string, number]>, shape: (value: string) => { value: string; entity: { urn: string } | null }, byCount = true) => {
    const values = counts.filter(([, n]) => n > 0);
    if (byCount) values.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return { field, displayName, entity: null, aggregations: values.slice(0, most === undefined ? values.length : Math.max(most, 0)).map(([value, count]) => ({ ...shape(value), count, displayName: null })) };
  };
  return [
    facet('degree', 'Degree', DEGREE_BUCKETS.map((b) => [b, page.degrees[b]]), (value) => ({ value, entity: null }), false),
    facet('_entityType', 'Type', Object.entries(page.entityTypes), (value) => ({ value: ctx.types.enumOf(value), entity: null })),
    facet('platform', 'Platform', Object.entries(page.platforms), (value) => ({ value, entity: { urn: value } })),
  ];
}
