import type { EntityTypes } from './entity-types.js';

/**
 * urnbase's GraphQL schema: the part of DataHub's API its SDK and CLI search with, under the type,
 * field and argument names those clients send. Written for urnbase; what is not here is refused by
 * validation with graphql-js's message naming the field or type.
 */
/** The fields of governance aspects (resolvers/governance.ts), on every type that has them. */
const GOVERNED = `
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  ownership: Ownership
  domain: DomainAssociation
  container: Container
  subTypes: SubTypes`;

export function schemaText(types: EntityTypes): string {
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

"Anything with a URN."
interface Entity {
  urn: String!
  type: EntityType!
}

type CustomPropertiesEntry {
  key: String!
  value: String
}

type DataPlatformProperties {
  type: String
  displayName: String
  datasetNameDelimiter: String
  logoUrl: String
}

type DataPlatform implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  properties: DataPlatformProperties
}

type DatasetProperties {
  name: String!
  qualifiedName: String
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type Dataset implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  "The environment (PROD, DEV, …) of the URN."
  origin: String!
  platform: DataPlatform
  properties: DatasetProperties${GOVERNED}
}

type ChartProperties {
  name: String!
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type Chart implements Entity {
  urn: String!
  type: EntityType!
  tool: String!
  chartId: String!
  platform: DataPlatform
  properties: ChartProperties${GOVERNED}
}

type DashboardProperties {
  name: String!
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type Dashboard implements Entity {
  urn: String!
  type: EntityType!
  tool: String!
  dashboardId: String!
  platform: DataPlatform
  properties: DashboardProperties${GOVERNED}
}

type DataFlowProperties {
  name: String!
  description: String
  project: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type DataFlow implements Entity {
  urn: String!
  type: EntityType!
  orchestrator: String!
  flowId: String!
  cluster: String!
  platform: DataPlatform
  properties: DataFlowProperties${GOVERNED}
}

type DataJobProperties {
  name: String!
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type DataJob implements Entity {
  urn: String!
  type: EntityType!
  jobId: String!
  dataFlow: DataFlow
  properties: DataJobProperties${GOVERNED}
}

type ContainerProperties {
  name: String!
  description: String
  qualifiedName: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type Container implements Entity {
  urn: String!
  type: EntityType!
  "Null when the container has no dataPlatformInstance aspect."
  platform: DataPlatform
  properties: ContainerProperties${GOVERNED}
}

type TagProperties {
  name: String!
  description: String
  colorHex: String
}

type Tag implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  properties: TagProperties
}

type CorpUserProperties {
  active: Boolean
  displayName: String
  email: String
  title: String
  firstName: String
  lastName: String
  fullName: String
}

type CorpUser implements Entity {
  urn: String!
  type: EntityType!
  username: String!
  properties: CorpUserProperties
}

type CorpGroupProperties {
  displayName: String
  description: String
  email: String
}

type CorpGroup implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  properties: CorpGroupProperties
}

type GlossaryTermProperties {
  name: String!
  description: String
  definition: String!
  termSource: String
}

type GlossaryTerm implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  hierarchicalName: String!
  properties: GlossaryTermProperties
}

type GlossaryNodeProperties {
  name: String!
  description: String
}

type GlossaryNode implements Entity {
  urn: String!
  type: EntityType!
  properties: GlossaryNodeProperties
}

type DomainProperties {
  name: String!
  description: String
}

type Domain implements Entity {
  urn: String!
  type: EntityType!
  id: String!
  properties: DomainProperties
}

type DataProductProperties {
  name: String!
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}

type DataProduct implements Entity {
  urn: String!
  type: EntityType!
  properties: DataProductProperties
}

type EntityTypeEntity implements Entity {
  urn: String!
  type: EntityType!
}

type DataTypeEntity implements Entity {
  urn: String!
  type: EntityType!
}

type StructuredPropertyDefinition {
  qualifiedName: String!
  displayName: String
  description: String
  cardinality: String
  immutable: Boolean!
  valueType: DataTypeEntity!
  entityTypes: [EntityTypeEntity!]!
}

type StructuredPropertyEntity implements Entity {
  urn: String!
  type: EntityType!
  definition: StructuredPropertyDefinition
}

type TagAssociation {
  tag: Tag!
  associatedUrn: String!
}

type GlobalTags {
  tags: [TagAssociation!]
}

type GlossaryTermAssociation {
  term: GlossaryTerm!
  associatedUrn: String!
}

type GlossaryTerms {
  terms: [GlossaryTermAssociation!]
}

"Who may own an entity."
union OwnerType = CorpUser | CorpGroup

type Owner {
  owner: OwnerType!
  "The ownership type as written (DATAOWNER, TECHNICAL_OWNER, …)."
  type: String
  associatedUrn: String!
}

type Ownership {
  owners: [Owner!]
}

type DomainAssociation {
  domain: Domain!
  associatedUrn: String!
}

type SubTypes {
  typeNames: [String!]
}

"The description of an ML entity."
type MLProperties {
  description: String
}

type MLModel implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform
  properties: MLProperties${GOVERNED}
}

type MLModelGroup implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform
  properties: MLProperties${GOVERNED}
}

type MLFeatureTable implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform
  properties: MLProperties${GOVERNED}
}

type MLFeature implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  properties: MLProperties${GOVERNED}
}

type MLPrimaryKey implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  properties: MLProperties${GOVERNED}
}

type DocumentInfo {
  title: String
}

"DataHub's documents: not in urnbase's model, so never found; here so that clients' fragments on them validate."
type Document implements Entity {
  urn: String!
  type: EntityType!
  subType: String
  platform: DataPlatform
  info: DocumentInfo${GOVERNED}
}

"An entity of a type this schema has no object type for yet: its URN and type only."
type OtherEntity implements Entity {
  urn: String!
  type: EntityType!
}
`;
}
