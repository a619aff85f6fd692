/**
 * The entity types of urnbase's GraphQL schema, as search results show them: the Entity interface
 * and an object type per entity type clients ask fields of, under DataHub's names.
 */

/** The fields of governance aspects (resolvers/governance.ts), on every type that has them. */
const GOVERNED = `
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  ownership: Ownership
  domain: DomainAssociation
  container: Container
  subTypes: SubTypes
  status: Status
  deprecation: Deprecation
  structuredProperties: StructuredProperties
  browsePathV2: BrowsePathV2`;

/** An editableProperties field and its type: what the UI edits beside what ingestion writes. */
const editable = (type: string) => `
  editableProperties: ${type}EditableProperties`;

export const ENTITY_SCHEMA = `
type DatasetEditableProperties {
  name: String
  description: String
}

${['Chart', 'Dashboard', 'DataFlow', 'DataJob', 'Container', 'MLModel', 'MLModelGroup', 'MLFeatureTable', 'MLFeature', 'MLPrimaryKey']
  .map((type) => `type ${type}EditableProperties {\n  description: String\n}\n`)
  .join('\n')}
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
  properties: DatasetProperties${editable('Dataset')}${GOVERNED}
  "The schema: the latest without a version (or with 0), else the N-th written (null when there is none)."
  schemaMetadata(version: Long): SchemaMetadata
  editableSchemaMetadata: EditableSchemaMetadata
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
  properties: ChartProperties${editable('Chart')}${GOVERNED}
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
  properties: DashboardProperties${editable('Dashboard')}${GOVERNED}
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
  properties: DataFlowProperties${editable('DataFlow')}${GOVERNED}
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
  properties: DataJobProperties${editable('DataJob')}${GOVERNED}
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
  properties: ContainerProperties${editable('Container')}${GOVERNED}
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
  structuredProperties: StructuredProperties
}

type GlossaryNodeProperties {
  name: String!
  description: String
}

type GlossaryNode implements Entity {
  urn: String!
  type: EntityType!
  properties: GlossaryNodeProperties
  structuredProperties: StructuredProperties
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
  structuredProperties: StructuredProperties
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
  structuredProperties: StructuredProperties
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

type BrowsePathEntry {
  name: String!
  "The entity the entry stands for (a container, …), when the path names one."
  entity: Entity
}

type BrowsePathV2 {
  path: [BrowsePathEntry!]!
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
  properties: MLProperties${editable('MLModel')}${GOVERNED}
}

type MLModelGroup implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform
  properties: MLProperties${editable('MLModelGroup')}${GOVERNED}
}

type MLFeatureTable implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform
  properties: MLProperties${editable('MLFeatureTable')}${GOVERNED}
}

type MLFeature implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  properties: MLProperties${editable('MLFeature')}${GOVERNED}
}

type MLPrimaryKey implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  properties: MLProperties${editable('MLPrimaryKey')}${GOVERNED}
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
