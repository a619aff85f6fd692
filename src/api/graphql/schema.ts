import type { EntityTypes } from './entity-types.js';
import { DATASET_SCHEMA_SCHEMA } from './schema-dataset-schema.js';
import { ENTITY_SCHEMA } from './schema-entities.js';
import { ENTITY_GRAPH_SCHEMA } from './schema-entity-graph.js';
import { FETCH_SCHEMA } from './schema-fetch.js';
import { FORMS_SCHEMA } from './schema-forms.js';
import { DATA_JOB_PLATFORM_SCHEMA, LINEAGE_SCHEMA } from './schema-lineage.js';
import { BATCH_MUTATION_SCHEMA, DELETE_MUTATION_SCHEMA, DESCRIPTION_MUTATION_SCHEMA } from './schema-edits.js';
import { DOMAIN_MUTATION_SCHEMA, MUTATION_SCHEMA, OWNER_MUTATION_SCHEMA, TERM_MUTATION_SCHEMA } from './schema-mutations.js';
import { STRUCTURED_MUTATION_SCHEMA } from './schema-structured-mutations.js';
import { STRUCTURED_SCHEMA } from './schema-structured.js';
import { searchSchema } from './schema-search.js';

/**
 * urnbase's GraphQL schema: the part of DataHub's API its SDK and CLI search and fetch entities with, and the writes they make, under the type,
 * field and argument names those clients send. Written for urnbase; what is not here is refused by
 * validation with graphql-js's message naming the field or type.
 */
export function schemaText(types: EntityTypes): string {
  return searchSchema(types) + ENTITY_SCHEMA + DATASET_SCHEMA_SCHEMA + STRUCTURED_SCHEMA + FETCH_SCHEMA + LINEAGE_SCHEMA + DATA_JOB_PLATFORM_SCHEMA + MUTATION_SCHEMA + OWNER_MUTATION_SCHEMA + DOMAIN_MUTATION_SCHEMA + TERM_MUTATION_SCHEMA + DESCRIPTION_MUTATION_SCHEMA + BATCH_MUTATION_SCHEMA + DELETE_MUTATION_SCHEMA + STRUCTURED_MUTATION_SCHEMA + FORMS_SCHEMA + ENTITY_GRAPH_SCHEMA;
}
