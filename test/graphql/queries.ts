import type { TestApp } from '../helpers.js';

/**
 * Queries with the operations, fields and variables DataHub's SDK and CLI send (read in its
 * client.py, filters.py and cli/gql/search.gql), written for urnbase's tests.
 */

/** The SDK's get_urns_by_filter: a scroll of URNs, 5,000 a page by default, until nextScrollId is null. */
export const URNS_BY_FILTER = `
query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $batchSize: Int!,
    $scrollId: String, $skipCache: Boolean!, $sortInput: SearchSortInput, $includeSoftDeleted: Boolean) {
  scrollAcrossEntities(input: {
      query: $query, count: $batchSize, scrollId: $scrollId, types: $types, orFilters: $orFilters, sortInput: $sortInput,
      searchFlags: { skipHighlighting: true, skipAggregates: true, skipCache: $skipCache, includeSoftDeleted: $includeSoftDeleted }
  }) {
    nextScrollId
    searchResults { entity { urn } extraProperties { name value } }
  }
}`;

/** The CLI's `datahub search`: a page by offset with the entities' fields (those of its fragments, type by type) and the facets. */
const GOVERNED = `
    tags { tags { tag { urn name properties { name description } } } }
    glossaryTerms { terms { term { urn name properties { name description } } } }
    ownership { owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } } }
    domain { domain { urn properties { name description } } }`;
export const CLI_SEARCH = `
query search($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $count: Int!, $start: Int!,
    $viewUrn: String, $sortInput: SearchSortInput) {
  searchAcrossEntities(input: { query: $query, count: $count, start: $start, types: $types, orFilters: $orFilters,
      viewUrn: $viewUrn, sortInput: $sortInput, searchFlags: { skipHighlighting: true, maxAggValues: 5 } }) {
    start count total
    searchResults { entity { ...Found } }
    facets { field displayName aggregations { value count displayName entity { ...FacetValue } } }
  }
}
fragment Platform on DataPlatform { urn name properties { displayName logoUrl } }
fragment Found on Entity {
  urn type
  ... on Dataset {
    name origin properties { name description customProperties { key value } } platform { ...Platform } ${GOVERNED}
    container { urn properties { name } platform { ...Platform } }
  }
  ... on Chart { properties { name description } platform { ...Platform } ${GOVERNED} }
  ... on Dashboard { properties { name description } platform { ...Platform } ${GOVERNED} }
  ... on DataJob { dataFlow { urn } jobId properties { name description } ${GOVERNED} }
  ... on DataFlow { flowId cluster properties { name description } platform { ...Platform } ${GOVERNED} }
  ... on CorpUser { username properties { displayName email } }
  ... on CorpGroup { name properties { displayName email } }
  ... on Domain { properties { name description } }
  ... on Container { properties { name description } platform { ...Platform } ${GOVERNED} }
  ... on GlossaryTerm { name properties { name description } }
  ... on Tag { name properties { name description } }
  ... on MLModel { name properties { description } platform { ...Platform } ${GOVERNED} }
  ... on MLFeature { name properties { description } ${GOVERNED} }
  ... on MLFeatureTable { name properties { description } platform { ...Platform } ${GOVERNED} }
  ... on MLPrimaryKey { name properties { description } ${GOVERNED} }
  ... on MLModelGroup { name properties { description } platform { ...Platform } ${GOVERNED} }
  ... on Document { subType platform { ...Platform } info { title } ${GOVERNED} }
}
fragment FacetValue on Entity {
  urn type
  ... on Tag { name properties { name description colorHex } }
  ... on GlossaryTerm { name properties { name description } }
  ... on Domain { properties { name description } }
  ... on Container { properties { name } platform { ...Platform } }
  ... on CorpUser { username properties { displayName } }
  ... on CorpGroup { name properties { displayName } }
  ... on DataPlatform { ...Platform }
}`;

/** The filter get_urns_by_filter adds for its default status, NOT_SOFT_DELETED. */
export const NOT_SOFT_DELETED = { and: [{ field: 'removed', values: ['true'], condition: 'EQUAL', negated: true }] };

export function urnsByFilterVariables(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { types: null, query: '*', orFilters: [NOT_SOFT_DELETED], batchSize: 5000, skipCache: false, sortInput: null, includeSoftDeleted: false, ...overrides };
}

/** A POST of a GraphQL request, as DataHub's client sends it. */
export function graphql(t: TestApp, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.call({ method: 'POST', url: '/api/graphql', headers, payload: { query, ...(variables ? { variables } : {}) } });
}

/** Every URN get_urns_by_filter yields: pages followed until nextScrollId is null. */
export async function urnsByFilter(t: TestApp, variables: Record<string, unknown>): Promise<{ urns: string[]; pages: number }> {
  const urns: string[] = [];
  let scrollId: string | null = null;
  let pages = 0;
  do {
    const { status, body } = await graphql(t, URNS_BY_FILTER, { ...variables, scrollId });
    if (status !== 200 || body.errors) throw new Error(`page ${pages}: ${status} ${JSON.stringify(body)}`);
    const page = body.data.scrollAcrossEntities;
    urns.push(...page.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn));
    scrollId = page.nextScrollId;
    pages++;
  } while (scrollId);
  return { urns, pages };
}

/** Runs `run` while counting the store's getLatestMany calls: the aspects each one asked for (undefined: all). */
export async function latestReads<T>(t: TestApp, run: () => Promise<T>): Promise<{ result: T; reads: Array<readonly string[] | undefined> }> {
  const store = t.services.store;
  const read = store.getLatestMany.bind(store);
  const reads: Array<readonly string[] | undefined> = [];
  store.getLatestMany = (urns, aspects) => {
    reads.push(aspects);
    return read(urns, aspects);
  };
  try {
    return { result: await run(), reads };
  } finally {
    store.getLatestMany = read;
  }
}

/** The SDK's lineage client (sdk/lineage_client.py, get_lineage): a scroll of degree, entity fields and paths, followed until nextScrollId is null. */
export const SDK_LINEAGE = `
query scrollAcrossLineage($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) {
    nextScrollId
    searchResults {
      degree
      entity {
        urn type
        ... on Dataset { name platform { name } properties { description } }
        ... on DataJob { jobId dataPlatformInstance { platform { name } } properties { name description } }
      }
      paths { path { urn type } }
    }
  }
}`;
