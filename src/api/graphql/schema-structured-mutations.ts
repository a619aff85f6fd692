/**
 * The structured-property mutations (resolvers/mutations-structured.ts): a property defined,
 * widened and deleted, and the values of an asset set and removed, under DataHub's field, input
 * and argument names. Written for urnbase.
 */
export const STRUCTURED_MUTATION_SCHEMA = `
"Which entity types a URN-valued property's values may name."
type TypeQualifier {
  allowedTypes: [EntityTypeEntity!]
}

extend type StructuredPropertyDefinition {
  "Null unless the property restricts the entity types of its URN values."
  typeQualifier: TypeQualifier
}

"A value given to a property: exactly one of the two."
input PropertyValueInput {
  stringValue: String
  numberValue: Float
}

"A value a property allows (exactly one of stringValue and numberValue), with what it means."
input AllowedValueInput {
  stringValue: String
  numberValue: Float
  description: String
}

input TypeQualifierInput {
  "Entity type URNs, such as urn:li:entityType:datahub.corpuser."
  allowedTypes: [String!]
}

input UpdateTypeQualifierInput {
  "Entity type URNs added to those allowed."
  newAllowedTypes: [String!]
}

"Display settings; a flag left out is false on create and unchanged on update."
input StructuredPropertySettingsInput {
  isHidden: Boolean
  showInSearchFilters: Boolean
  showInAssetSummary: Boolean
  showAsAssetBadge: Boolean
  showInColumnsTable: Boolean
}

input CreateStructuredPropertyInput {
  "The last part of the URN; when given with qualifiedName the two must be equal. A random UUID when both are omitted."
  id: String
  qualifiedName: String
  displayName: String
  description: String
  immutable: Boolean
  "A data type URN, such as urn:li:dataType:datahub.string."
  valueType: String!
  typeQualifier: TypeQualifierInput
  allowedValues: [AllowedValueInput!]
  cardinality: PropertyCardinality
  "Entity type URNs the property may be given to, such as urn:li:entityType:datahub.dataset."
  entityTypes: [String!]!
  settings: StructuredPropertySettingsInput
}

"Only widening changes: what is new is added to what the property has."
input UpdateStructuredPropertyInput {
  urn: String!
  displayName: String
  description: String
  immutable: Boolean
  typeQualifier: UpdateTypeQualifierInput
  newAllowedValues: [AllowedValueInput!]
  setCardinalityAsMultiple: Boolean
  newEntityTypes: [String!]
  settings: StructuredPropertySettingsInput
}

input StructuredPropertyInputParams {
  structuredPropertyUrn: String!
  values: [PropertyValueInput!]!
}

input UpsertStructuredPropertiesInput {
  assetUrn: String!
  structuredPropertyInputParams: [StructuredPropertyInputParams!]!
}

input RemoveStructuredPropertiesInput {
  assetUrn: String!
  structuredPropertyUrns: [String!]!
}

input DeleteStructuredPropertyInput {
  urn: String!
}

extend type Mutation {
  "Sets the asset's values of each property named (others stay as they are); answers all of the asset's values."
  upsertStructuredProperties(input: UpsertStructuredPropertiesInput!): StructuredProperties!
  "Takes the properties' values off the asset; answers the values left."
  removeStructuredProperties(input: RemoveStructuredPropertiesInput!): StructuredProperties!
  "Defines a property (and its settings); an id already taken is refused."
  createStructuredProperty(input: CreateStructuredPropertyInput!): StructuredPropertyEntity!
  updateStructuredProperty(input: UpdateStructuredPropertyInput!): StructuredPropertyEntity!
  "Soft deletes the property: its values disappear from reads, and writing status removed=false restores it."
  deleteStructuredProperty(input: DeleteStructuredPropertyInput!): Boolean!
}
`;
