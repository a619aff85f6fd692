/**
 * The lineage searches of urnbase's GraphQL schema: searchAcrossLineage and scrollAcrossLineage,
 * their inputs and results, under the names DataHub's SDK and UI send. Written for urnbase; the
 * walk is the Lineage service's (graph/lineage.ts), as on GET /openapi/v3/lineage.
 */
export const LINEAGE_SCHEMA = `
extend type Query {
  "The entities upstream or downstream of one, each with its degree and a shortest path, by offset."
  searchAcrossLineage(input: SearchAcrossLineageInput!): SearchAcrossLineageResults
  "The same, by cursor: follow nextScrollId until it is null."
  scrollAcrossLineage(input: ScrollAcrossLineageInput!): ScrollAcrossLineageResults
}

enum LineageDirection {
  UPSTREAM
  DOWNSTREAM
}

input SearchAcrossLineageInput {
  "The entity walked from (required)."
  urn: String
  direction: LineageDirection!
  "Entity types of the results; the walk goes through every type."
  types: [EntityType!]
  "* or empty: text queries over lineage are refused."
  query: String
  start: Int
  count: Int
  "Criteria on degree (1, 2, 3+), platform and _entityType; at most one group."
  filters: [FacetFilterInput!]
  orFilters: [AndFilterInput!]
  "Refused when given: urnbase's edges carry no time range."
  startTimeMillis: Long
  endTimeMillis: Long
  searchFlags: SearchFlags
  lineageFlags: LineageFlags
  "Views are not served: a request naming one is refused."
  viewUrn: String
  "Refused when given: results are ordered by degree, then URN."
  sortInput: SearchSortInput
}

input ScrollAcrossLineageInput {
  urn: String
  direction: LineageDirection!
  types: [EntityType!]
  query: String
  "The cursor of the previous page (nextScrollId); absent for the first page."
  scrollId: String
  "Accepted for DataHub's clients: the cursor needs no snapshot kept alive."
  keepAlive: String
  count: Int
  orFilters: [AndFilterInput!]
  startTimeMillis: Long
  endTimeMillis: Long
  searchFlags: SearchFlags
  lineageFlags: LineageFlags
}

input LineageFlags {
  "Accepted and not applied: every entity reached is explored, within the walk's time budget."
  entitiesExploredPerHopLimit: Int
  "Refused when given: urnbase's edges carry no time range."
  startTimeMillis: Long
  endTimeMillis: Long
  "Refused when not empty."
  ignoreAsHops: [EntityTypeToPlatforms!]
}

extend input SearchFlags {
  "Lineage only, and only as the SDK sends it for column lineage (schema fields as schema fields); anything else is refused."
  groupingSpec: GroupingSpec
}

input GroupingSpec {
  groupingCriteria: [GroupingCriterion!]
}

input GroupingCriterion {
  baseEntityType: EntityType
  groupingEntityType: EntityType!
}

input EntityTypeToPlatforms {
  entityType: EntityType!
  platforms: [String!]
}

type SearchAcrossLineageResults {
  start: Int!
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  "degree, _entityType and platform, with counts."
  facets: [FacetMetadata!]
  "True when the walk ran out of its time budget: entities further away may be missing."
  isPartial: Boolean
}

type ScrollAcrossLineageResults {
  "Null on the last page."
  nextScrollId: String
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  facets: [FacetMetadata!]
  isPartial: Boolean
}

type SearchAcrossLineageResult {
  entity: Entity!
  "Always empty."
  insights: [SearchInsight!]
  "Always empty."
  matchedFields: [MatchedField!]!
  "One shortest path, the walked entity first and this one last."
  paths: [EntityPath]
  "The least number of hops to this entity."
  degree: Int!
  "Its degree, alone: each entity is reached once, at its least degree."
  degrees: [Int!]
  "False when the walk ran out of its time budget."
  explored: Boolean!
  "Always false."
  truncatedChildren: Boolean!
  "Always false: ignoreAsHops is not served."
  ignoredAsHop: Boolean!
}

type EntityPath {
  path: [Entity]!
}
`;

/** What the SDK's lineage client asks of a job beyond the entity fields schema-entities.ts has. */
export const DATA_JOB_PLATFORM_SCHEMA = `
extend type DataJob {
  "The job's platform: its dataPlatformInstance aspect, else the platform its flow runs on."
  dataPlatformInstance: DataPlatformInstance
}

type DataPlatformInstance {
  platform: DataPlatform!
  "The instance the aspect names, when it names one."
  instanceId: String
}
`;
