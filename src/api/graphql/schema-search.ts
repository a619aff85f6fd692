import type { EntityTypes } from './entity-types.js';

/**
 * The searches of urnbase's GraphQL schema: the Query type, its inputs (filters, flags, sorting)
 * and its results, under the names DataHub's SDK and CLI send. Written for urnbase.
 */
export function searchSchema(types: EntityTypes): string {
  return `
"The kinds of entity, one per entity type of the registry (OTHER: none of them)."
enum EntityType {
  ${[...types.enumValues(), 'OTHER'].join('\n  ')}
}

"A number too large for Int: DataHub's 64-bit counts and times."
scalar Long

type Query {
  "A page of entities matching a query and filters, by offset (start + count at most 10,000)."
  searchAcrossEntities(input: SearchAcrossEntitiesInput!): SearchResults
  "A page of entities matching a query and filters, by cursor: follow nextScrollId until it is null."
  scrollAcrossEntities(input: ScrollAcrossEntitiesInput!): ScrollResults
}

input SearchAcrossEntitiesInput {
  "Entity types to search; all when absent."
  types: [EntityType!]
  "The query language of the REST search (docs/search.md); * for everything."
  query: String!
  start: Int
  count: Int
  "Criteria all results meet (AND). Prefer orFilters."
  filters: [FacetFilterInput!]
  "Groups of criteria: a result meets every criterion of at least one group."
  orFilters: [AndFilterInput!]
  "Views are not served: a request naming one is refused."
  viewUrn: String
  searchFlags: SearchFlags
  sortInput: SearchSortInput
}

input ScrollAcrossEntitiesInput {
  types: [EntityType!]
  query: String!
  "The cursor of the previous page (nextScrollId); absent for the first page."
  scrollId: String
  "Accepted for DataHub's clients: urnbase's cursors need no snapshot kept alive."
  keepAlive: String
  count: Int
  orFilters: [AndFilterInput!]
  viewUrn: String
  searchFlags: SearchFlags
  sortInput: SearchSortInput
}

input AndFilterInput {
  and: [FacetFilterInput!]
}

input FacetFilterInput {
  "A search field: platform (or platform.keyword), origin, tags, removed, browsePathV2, _entityType, structuredProperties.<qualified name>, …"
  field: String!
  "Deprecated single value; values wins when both are given."
  value: String
  values: [String!]
  "True: the entities that do not match. Variables may also send \\"true\\" or \\"false\\"."
  negated: Boolean
  "EQUAL when absent."
  condition: FilterOperator
}

enum FilterOperator {
  EQUAL
  IEQUAL
  CONTAIN
  IN
  EXISTS
  START_WITH
  END_WITH
  GREATER_THAN
  GREATER_THAN_OR_EQUAL_TO
  LESS_THAN
  LESS_THAN_OR_EQUAL_TO
  DESCENDANTS_INCL
  ANCESTORS_INCL
  RELATED_INCL
}

"How a search runs. Flags urnbase has no use for are accepted and change nothing."
input SearchFlags {
  skipCache: Boolean
  "At most this many values per facet."
  maxAggValues: Int
  fulltext: Boolean
  skipHighlighting: Boolean
  "No facets are counted."
  skipAggregates: Boolean
  getSuggestions: Boolean
  "Include soft-deleted entities (status.removed true)."
  includeSoftDeleted: Boolean
  includeRestricted: Boolean
  customHighlightingFields: [String!]
  includeStructuredPropertyFacets: Boolean
  filterNonLatestVersions: Boolean
  includeHiddenLifecycleStages: Boolean
  includeDraft: Boolean
}

input SearchSortInput {
  "The first criterion sorts."
  sortCriteria: [SortCriterion!]
  sortCriterion: SortCriterion
}

input SortCriterion {
  field: String!
  sortOrder: SortOrder!
}

enum SortOrder {
  ASCENDING
  DESCENDING
}

type SearchResults {
  start: Int!
  count: Int!
  total: Int!
  searchResults: [SearchResult!]!
  facets: [FacetMetadata!]
}

type ScrollResults {
  "Null on the last page."
  nextScrollId: String
  count: Int!
  total: Int!
  searchResults: [SearchResult!]!
  facets: [FacetMetadata!]
}

type SearchResult {
  entity: Entity!
  "urnbase does not say which fields matched: always empty."
  matchedFields: [MatchedField!]!
  "Always empty."
  extraProperties: [ExtraProperty!]
  insights: [SearchInsight!]
}

type MatchedField {
  name: String!
  value: String!
  entity: Entity
}

type ExtraProperty {
  name: String!
  value: String!
}

type SearchInsight {
  text: String!
  icon: String
}

type FacetMetadata {
  field: String!
  displayName: String
  entity: Entity
  aggregations: [AggregationMetadata!]!
}

type AggregationMetadata {
  value: String!
  count: Long!
  "The entity a URN value names."
  entity: Entity
  displayName: String
}

`;
}
