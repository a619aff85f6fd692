/**
 * Structured properties in urnbase's GraphQL schema (resolvers/structured.ts): definitions,
 * settings and the values entities carry, under DataHub's type and field names. Written for urnbase.
 */
export const STRUCTURED_SCHEMA = `
"The kind of value a data type holds."
enum StdDataType {
  STRING
  NUMBER
  URN
  RICH_TEXT
  DATE
  OTHER
}

type DataTypeInfo {
  type: StdDataType!
  qualifiedName: String!
  displayName: String
  description: String
}

type DataTypeEntity implements Entity {
  urn: String!
  type: EntityType!
  info: DataTypeInfo!
}

type EntityTypeInfo {
  type: EntityType!
  qualifiedName: String!
}

type EntityTypeEntity implements Entity {
  urn: String!
  type: EntityType!
  info: EntityTypeInfo!
}

enum PropertyCardinality {
  SINGLE
  MULTIPLE
}

type StringValue {
  stringValue: String!
}

type NumberValue {
  numberValue: Float!
}

"A structured property's value: text (strings, URNs, dates, rich text) or a number."
union PropertyValue = StringValue | NumberValue

type AllowedValue {
  value: PropertyValue!
  description: String
}

type StructuredPropertyDefinition {
  qualifiedName: String!
  displayName: String
  description: String
  cardinality: PropertyCardinality
  immutable: Boolean!
  valueType: DataTypeEntity!
  allowedValues: [AllowedValue!]
  entityTypes: [EntityTypeEntity!]!
}

type StructuredPropertySettings {
  isHidden: Boolean!
  showInSearchFilters: Boolean!
  showAsAssetBadge: Boolean!
  showInAssetSummary: Boolean!
  showInColumnsTable: Boolean!
}

type StructuredPropertyEntity implements Entity {
  urn: String!
  type: EntityType!
  "Null when the property has no propertyDefinition aspect."
  definition: StructuredPropertyDefinition
  "Null when the property has no structuredPropertySettings aspect, as DataHub answers."
  settings: StructuredPropertySettings
}

type StructuredPropertiesEntry {
  structuredProperty: StructuredPropertyEntity!
  values: [PropertyValue]!
  "The entities the values name: those that are URNs (a URN-typed property's), in the values' order."
  valueEntities: [Entity]
  associatedUrn: String!
}

type StructuredProperties {
  properties: [StructuredPropertiesEntry!]
}
`;
