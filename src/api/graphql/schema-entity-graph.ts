import { ENTITY_OBJECT_TYPES } from './entity-types.js';

/**
 * An entity's own place in the graph, on every entity type (resolvers/entity-graph.ts): its
 * relationships one hop away by type and direction, and its lineage one hop away, which DataHub's
 * UI reads its lineage counts from (`upstream: lineage(input: {direction: UPSTREAM, start: 0,
 * count: 0}) { total }`). Written for urnbase under DataHub's type, field and argument names.
 */
const FIELDS = `
  "One hop of relationships of the given types, in one direction (by relationship, source, destination)."
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
  "The entities one hop upstream or downstream, by URN."
  lineage(input: LineageInput!): EntityLineageResult`;

export const ENTITY_GRAPH_SCHEMA = `
"Which way a relationship goes from the entity: into it (INCOMING), or out of it (OUTGOING)."
enum RelationshipDirection {
  INCOMING
  OUTGOING
}

input RelationshipsInput {
  "Relationship names (DownstreamOf, OwnedBy, …); at least one."
  types: [String!]!
  direction: RelationshipDirection!
  start: Int
  "100 when absent."
  count: Int
  "Keep relationships to soft-deleted entities (default false)."
  includeSoftDelete: Boolean
}

type EntityRelationshipsResult {
  start: Int
  count: Int
  total: Int
  relationships: [EntityRelationship!]!
}

type EntityRelationship {
  type: String!
  direction: RelationshipDirection!
  "The entity at the other end."
  entity: Entity
}

input LineageInput {
  direction: LineageDirection!
  start: Int
  "100 when absent; 0 answers the total alone."
  count: Int
  "Accepted: urnbase never merges siblings' lineage, so they are always separate."
  separateSiblings: Boolean
  "Refused when given: urnbase's edges carry no time range."
  startTimeMillis: Long
  endTimeMillis: Long
  "Keep neighbours named by edges but not stored, and soft-deleted ones (default false, as in DataHub)."
  includeGhostEntities: Boolean
}

type EntityLineageResult {
  start: Int
  count: Int
  total: Int
  "How many were left out (soft-deleted or not stored): always 0, as they are never counted."
  filtered: Int
  relationships: [LineageRelationship!]!
}

type LineageRelationship {
  "The relationship of the edge (DownstreamOf, Consumes, Produces, …)."
  type: String!
  entity: Entity
  "Always 1: one hop."
  degree: Int!
  "Null: urnbase's edges keep no audit stamps (isManual is false)."
  createdOn: Long
  createdActor: Entity
  updatedOn: Long
  updatedActor: Entity
  isManual: Boolean
  "The entity and its neighbour."
  paths: [EntityPath]
}

"An entity whose relationships and lineage can be asked."
interface EntityWithRelationships implements Entity {
  urn: String!
  type: EntityType!${FIELDS}
}

extend interface Entity {
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
}

${ENTITY_OBJECT_TYPES.map((type) => `extend type ${type} implements EntityWithRelationships {${FIELDS}\n}`).join('\n\n')}
`;
