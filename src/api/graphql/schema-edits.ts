/**
 * The Mutation fields that edit an entity's documentation, owners and domain in batches, and end
 * its life (deletes, soft deletes, deprecation), under DataHub's field, input and argument names.
 */

export const DESCRIPTION_MUTATION_SCHEMA = `
input DescriptionUpdateInput {
  description: String!
  resourceUrn: String!
  "DATASET_FIELD with the field's path as subResource: the description of a dataset's field."
  subResourceType: SubResourceType
  subResource: String
}

extend type Mutation {
  "Sets the description users edit (a glossary entity's definition)."
  updateDescription(input: DescriptionUpdateInput!): Boolean
}
`;

export const BATCH_MUTATION_SCHEMA = `
input BatchAddOwnersInput {
  owners: [OwnerInput!]!
  ownershipTypeUrn: String
  resources: [ResourceRefInput!]!
}

input BatchRemoveOwnersInput {
  ownerUrns: [String!]!
  "Only the ownerships of this type are removed; every one of the owners' when omitted."
  ownershipTypeUrn: String
  resources: [ResourceRefInput!]!
}

input BatchSetDomainInput {
  "The domain to put the resources in; null takes them out of theirs."
  domainUrn: String
  resources: [ResourceRefInput!]!
}

extend type Mutation {
  "Adds the owners to every resource, or to none when one is refused."
  batchAddOwners(input: BatchAddOwnersInput!): Boolean
  batchRemoveOwners(input: BatchRemoveOwnersInput!): Boolean
  batchSetDomain(input: BatchSetDomainInput!): Boolean
}
`;

export const DELETE_MUTATION_SCHEMA = `
input BatchUpdateSoftDeletedInput {
  urns: [String!]!
  deleted: Boolean!
}

input UpdateDeprecationInput {
  urn: String!
  subResourceType: SubResourceType
  subResource: String
  deprecated: Boolean!
  "When the entity will be decommissioned, in epoch milliseconds."
  decommissionTime: Long
  note: String
  "The URN of what replaces it."
  replacement: String
}

input BatchUpdateDeprecationInput {
  deprecated: Boolean!
  decommissionTime: Long
  note: String
  resources: [ResourceRefInput!]!
  replacement: String
}

extend type Mutation {
  "Deletes the tag for good (its references stay); true also when there was none."
  deleteTag(urn: String!): Boolean
  "Deletes the domain for good; refused while other domains are in it."
  deleteDomain(urn: String!): Boolean
  "Deletes the glossary term or node for good."
  deleteGlossaryEntity(urn: String!): Boolean
  "Soft deletes (or restores) every entity: its status.removed."
  batchUpdateSoftDeleted(input: BatchUpdateSoftDeletedInput!): Boolean
  updateDeprecation(input: UpdateDeprecationInput!): Boolean
  batchUpdateDeprecation(input: BatchUpdateDeprecationInput!): Boolean
}
`;
