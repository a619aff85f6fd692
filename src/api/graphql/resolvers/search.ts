import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { ValidationError } from '../../../errors.js';
import { LIMITS } from '../../../limits.js';
import type { SearchPage, SearchRequest } from '../../../search/service.js';
import type { GraphQLContext } from '../context.js';
import { inputPlace, searchFilter, type AndFilterInput, type FacetFilterInput } from '../filters.js';

interface SearchInput {
  types?: readonly string[] | null;
  query: string;
  orFilters?: readonly AndFilterInput[] | null;
  filters?: readonly FacetFilterInput[] | null;
  viewUrn?: string | null;
  searchFlags?: { maxAggValues?: number | null; skipAggregates?: boolean | null; includeSoftDeleted?: boolean | null; groupingSpec?: unknown } | null;
  sortInput?: { sortCriteria?: ReadonlyArray<{ field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }> | null; sortCriterion?: { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' } | null } | null;
  count?: number | null;
}

interface ScrollInput extends SearchInput {
  scrollId?: string | null;
}

interface OffsetInput extends SearchInput {
  start?: number | null;
}

/**
 * The facets a search answers when asked for `facets`, under DataHub's names, with the search
 * field each counts (`_entityType`: the entity types) and the name DataHub shows for it.
 */
const FACETS: ReadonlyArray<{ name: string; field: string; displayName: string }> = [
  { name: '_entityType', field: 'entity', displayName: 'Type' },
  { name: 'platform', field: 'platform', displayName: 'Platform' },
  { name: 'typeNames', field: 'typeNames', displayName: 'Sub Type' },
  { name: 'origin', field: 'origin', displayName: 'Environment' },
  { name: 'tags', field: 'tags', displayName: 'Tag' },
  { name: 'glossaryTerms', field: 'glossaryTerms', displayName: 'Glossary Term' },
  { name: 'owners', field: 'owners', displayName: 'Owned By' },
  { name: 'domains', field: 'domains', displayName: 'Domain' },
];

/** The search queries: thin translations of their inputs into the search service's request, and of its page into DataHub's results. */
export const searchResolvers = {
  async scrollAcrossEntities(_: unknown, { input }: { input: ScrollInput }, ctx: GraphQLContext, info: GraphQLResolveInfo) {
    const count = resultCount(input.count, 'count');
    const page = await search(ctx, input, info, { count: Math.max(count, 1), scrollId: input.scrollId ?? undefined });
    const urns = page.urns.slice(0, count);
    return {
      // A page of none cannot move the cursor on: a client following it would never stop.
      nextScrollId: count === 0 ? null : (page.scrollId ?? null),
      count: urns.length,
      total: page.totalCount,
      searchResults: urns.map(result),
      facets: facetsOf(page, input, ctx),
    };
  },

  async searchAcrossEntities(_: unknown, { input }: { input: OffsetInput }, ctx: GraphQLContext, info: GraphQLResolveInfo) {
    const start = input.start ?? 0;
    if (!Number.isInteger(start) || start < 0) throw new ValidationError(`start must be at least 0, got ${start}`);
    const count = resultCount(input.count, 'count');
    if (start + count > LIMITS.graphqlResults) {
      throw new ValidationError(`start + count may be at most ${LIMITS.graphqlResults.toLocaleString('en-US')}, got ${(start + count).toLocaleString('en-US')}: use scrollAcrossEntities to page further`);
    }
    // Pages by offset are read from the first result: the search pages by cursor.
    const page = await search(ctx, input, info, { count: Math.max(start + count, 1) });
    const urns = page.urns.slice(start, start + count);
    return { start, count: urns.length, total: page.totalCount, searchResults: urns.map(result), facets: facetsOf(page, input, ctx) };
  },
};

/** A page size: 10 when absent, at most LIMITS.graphqlResults (a larger one is cut to it, as DataHub does). */
function resultCount(count: number | null | undefined, name: string): number {
  if (count === undefined || count === null) return 10;
  if (count < 0) throw new ValidationError(`${name} must be at least 0, got ${count}`);
  return Math.min(count, LIMITS.graphqlResults);
}

async function search(ctx: GraphQLContext, input: SearchInput, info: GraphQLResolveInfo, page: { count: number; scrollId?: string }): Promise<SearchPage> {
  if (input.viewUrn !== undefined && input.viewUrn !== null) {
    throw new ValidationError('viewUrn: views are not served by urnbase; send the view\'s filters in orFilters instead');
  }
  const flags = input.searchFlags ?? {};
  if (flags.groupingSpec !== undefined && flags.groupingSpec !== null) throw new ValidationError('searchFlags.groupingSpec: grouping search results is not served');
  const sort = input.sortInput?.sortCriteria?.[0] ?? input.sortInput?.sortCriterion ?? undefined;
  const wantsFacets = !flags.skipAggregates && selects(info.fieldNodes[0].selectionSet, 'facets', info);
  const request: SearchRequest = {
    types: input.types?.map((t) => ctx.types.entityName(t)),
    query: input.query,
    filter: searchFilter(input.orFilters, input.filters, ctx.types, ctx.services.registry),
    ...(sort ? { sort: { field: sort.field, order: sort.sortOrder } } : {}),
    scrollId: page.scrollId,
    count: page.count,
    includeSoftDelete: flags.includeSoftDeleted ?? false,
    facets: wantsFacets ? FACETS.map((f) => f.field) : [],
    signal: ctx.signal,
  };
  try {
    return await ctx.services.search.search(request);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(inputPlace(error.message, { orFilters: (input.orFilters?.length ?? 0) > 0 }));
    throw error;
  }
}

/** No result has matched fields, extra properties or insights: one empty list serves them all (a page may hold 10,000). */
const NONE: readonly never[] = Object.freeze([]);

function result(urn: string) {
  return { entity: { urn }, matchedFields: NONE, extraProperties: NONE, insights: NONE };
}

function facetsOf(page: SearchPage, input: SearchInput, ctx: GraphQLContext) {
  const most = input.searchFlags?.maxAggValues ?? undefined;
  return page.facets.map((facet, i) => {
    const { name, displayName } = FACETS[i];
    const values = Object.entries(facet.aggregations).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return {
      field: name,
      displayName,
      entity: null,
      aggregations: values.slice(0, most === undefined ? values.length : Math.max(most, 0)).map(([value, count]) =>
        name === '_entityType'
          ? { value: ctx.types.enumOf(value), count, displayName: null, entity: null }
          : { value, count, displayName: null, entity: value.startsWith('urn:li:') ? { urn: value } : null },
      ),
    };
  });
}

/** Whether a selection set asks for a field of that name, through fragments too. */
function selects(set: SelectionSetNode | undefined, field: string, info: GraphQLResolveInfo, seen = new Set<string>()): boolean {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD && selection.name.value === field) return true;
    if (selection.kind === Kind.INLINE_FRAGMENT && selects(selection.selectionSet, field, info, seen)) return true;
    if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      if (selects(info.fragments[selection.name.value]?.selectionSet, field, info, seen)) return true;
    }
  }
  return false;
}
