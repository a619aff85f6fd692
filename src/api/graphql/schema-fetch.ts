import { objectTypeOf } from './entity-types.js';
import { FETCHES } from './resolvers/fetch.js';

/**
 * The entity fetches of urnbase's GraphQL schema (resolvers/fetch.ts), under DataHub's Query
 * field names, and the lifecycle fields every fetched asset may be asked for. Written for urnbase.
 */

export const FETCH_SCHEMA = `
extend type Query {
  "An entity of any type by URN; null when it is not stored."
  entity(urn: String!): Entity
  "Entities by URN, in the order asked, null where one is not stored (at most 10,000)."
  entities(urns: [String!]!): [Entity]
  ${Object.keys(FETCHES).map((field) => `"Null when not stored; a URN of another type is refused."\n  ${field}(urn: String!): ${objectTypeOf(FETCHES[field])}`).join('\n  ')}
}

"Whether an entity is soft-deleted."
type Status {
  removed: Boolean!
}

type Deprecation {
  deprecated: Boolean!
  "When the entity will be decommissioned, in epoch milliseconds."
  decommissionTime: Long
  note: String
  "The URN of who deprecated it."
  actor: String
}
`;
