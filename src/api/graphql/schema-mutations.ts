/**
 * The Mutation type: the writes DataHub's SDK, CLI and UI send, under DataHub's field, input and
 * argument names. Each returns what DataHub's returns (a Boolean, or the new entity's URN).
 */
export const MUTATION_SCHEMA = `
"What a mutation is about below an entity: a field of a dataset's schema."
enum SubResourceType { DATASET_FIELD }

input CreateTagInput {
  "The tag's id, the last part of its URN; a random UUID when omitted."
  id: String
  name: String!
  description: String
}

input TagAssociationInput {
  tagUrn: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input AddTagsInput {
  tagUrns: [String!]!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input ResourceRefInput {
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input BatchAddTagsInput {
  tagUrns: [String!]!
  resources: [ResourceRefInput!]!
}

input BatchRemoveTagsInput {
  tagUrns: [String!]!
  resources: [ResourceRefInput!]!
}

type Mutation {
  "Creates a tag (its tagProperties); answers its URN. An id already taken is refused."
  createTag(input: CreateTagInput!): String
  addTag(input: TagAssociationInput!): Boolean
  addTags(input: AddTagsInput!): Boolean
  removeTag(input: TagAssociationInput!): Boolean
  "Adds the tags to every resource, or to none when one is refused."
  batchAddTags(input: BatchAddTagsInput!): Boolean
  batchRemoveTags(input: BatchRemoveTagsInput!): Boolean
}
`;

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

export const TERM_MUTATION_SCHEMA = `
input TermAssociationInput {
  termUrn: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input AddTermsInput {
  termUrns: [String!]!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input BatchAddTermsInput {
  termUrns: [String!]!
  resources: [ResourceRefInput!]!
}

input BatchRemoveTermsInput {
  termUrns: [String!]!
  resources: [ResourceRefInput!]!
}

extend type Mutation {
  addTerm(input: TermAssociationInput!): Boolean
  addTerms(input: AddTermsInput!): Boolean
  removeTerm(input: TermAssociationInput!): Boolean
  "Adds the glossary terms to every resource, or to none when one is refused."
  batchAddTerms(input: BatchAddTermsInput!): Boolean
  batchRemoveTerms(input: BatchRemoveTermsInput!): Boolean
}
`;
