/**
 * A dataset's schema in urnbase's GraphQL schema (resolvers/dataset-schema.ts), under DataHub's
 * type and field names. Written for urnbase.
 */
export const DATASET_SCHEMA_SCHEMA = `
"The type of a schema field, from the PDL union its type holds."
enum SchemaFieldDataType {
  BOOLEAN
  FIXED
  STRING
  BYTES
  NUMBER
  DATE
  TIME
  ENUM
  NULL
  MAP
  ARRAY
  UNION
  STRUCT
}

type SchemaField {
  fieldPath: String!
  jsonPath: String
  label: String
  nullable: Boolean!
  description: String
  type: SchemaFieldDataType!
  nativeDataType: String
  recursive: Boolean!
  isPartOfKey: Boolean
  globalTags: GlobalTags
  glossaryTerms: GlossaryTerms
}

type SchemaMetadata {
  "The schema's name (schemaName)."
  name: String!
  platformUrn: String!
  "The version the source gave the schema (not the aspect's version)."
  version: Long!
  hash: String!
  primaryKeys: [String!]
  fields: [SchemaField!]!
}

type EditableSchemaFieldInfo {
  fieldPath: String!
  description: String
  globalTags: GlobalTags
  glossaryTerms: GlossaryTerms
}

type EditableSchemaMetadata {
  editableSchemaFieldInfo: [EditableSchemaFieldInfo!]!
}
`;
