/**
 * The Mutation type: the writes DataHub's SDK, CLI and UI send, under DataHub's field, input and
 * argument names. Each returns what DataHub's returns (a Boolean, or the new entity's URN).
 */
/**
 * The inputs and Mutation fields of one kind of label (tags, glossary terms), which DataHub names
 * alike: add<Label>(s), remove<Label>, batchAdd<Label>s, batchRemove<Label>s.
 */
function labelSchema(Label: string, label: string, plural: string): string {
  return `
input ${Label}AssociationInput {
  ${label}Urn: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input Add${Label}sInput {
  ${label}Urns: [String!]!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input BatchAdd${Label}sInput {
  ${label}Urns: [String!]!
  resources: [ResourceRefInput!]!
}

input BatchRemove${Label}sInput {
  ${label}Urns: [String!]!
  resources: [ResourceRefInput!]!
}

extend type Mutation {
  add${Label}(input: ${Label}AssociationInput!): Boolean
  add${Label}s(input: Add${Label}sInput!): Boolean
  remove${Label}(input: ${Label}AssociationInput!): Boolean
  "Adds the ${plural} to every resource, or to none when one is refused."
  batchAdd${Label}s(input: BatchAdd${Label}sInput!): Boolean
  batchRemove${Label}s(input: BatchRemove${Label}sInput!): Boolean
}
`;
}

export const MUTATION_SCHEMA = `
"What a mutation is about below an entity: a field of a dataset's schema."
enum SubResourceType { DATASET_FIELD }

input CreateTagInput {
  "The tag's id, the last part of its URN; a random UUID when omitted."
  id: String
  name: String!
  description: String
}

type Mutation {
  "Creates a tag (its tagProperties); answers its URN. An id already taken is refused."
  createTag(input: CreateTagInput!): String
}

input ResourceRefInput {
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}
` + labelSchema('Tag', 'tag', 'tags');

export const OWNER_MUTATION_SCHEMA = `
"What kind of entity owns: a user or a group."
enum OwnerEntityType { CORP_USER CORP_GROUP }

"DataHub's ownership types, kept on each owner as its deprecated type."
enum OwnershipType { TECHNICAL_OWNER BUSINESS_OWNER DATA_STEWARD NONE CUSTOM DATAOWNER DEVELOPER PRODUCER DELEGATE CONSUMER STAKEHOLDER }

input OwnerInput {
  ownerUrn: String!
  ownerEntityType: OwnerEntityType!
  type: OwnershipType
  ownershipTypeUrn: String
}

input AddOwnerInput {
  ownerUrn: String!
  ownerEntityType: OwnerEntityType!
  type: OwnershipType
  ownershipTypeUrn: String
  resourceUrn: String!
}

input AddOwnersInput {
  owners: [OwnerInput!]!
  resourceUrn: String!
}

input RemoveOwnerInput {
  ownerUrn: String!
  "Only the ownership of this type is removed; every one of the owner's when omitted."
  ownershipTypeUrn: String
  resourceUrn: String!
}

extend type Mutation {
  addOwner(input: AddOwnerInput!): Boolean
  addOwners(input: AddOwnersInput!): Boolean
  removeOwner(input: RemoveOwnerInput!): Boolean
}
`;

export const DOMAIN_MUTATION_SCHEMA = `
extend type Mutation {
  "Puts the entity in the domain, in place of any other it was in."
  setDomain(entityUrn: String!, domainUrn: String!): Boolean
  "Takes the entity out of its domain."
  unsetDomain(entityUrn: String!): Boolean
}
`;

export const TERM_MUTATION_SCHEMA = labelSchema('Term', 'term', 'glossary terms');
