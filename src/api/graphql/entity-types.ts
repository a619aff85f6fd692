import { ValidationError } from '../../errors.js';
import type { Registry } from '../../registry/registry.js';
import { entityTypeOf } from '../../urn/urn.js';

/**
 * DataHub's GraphQL `EntityType` enum and the object type of each entity, derived from the
 * registry's entity type names: `dataJob` is DATA_JOB, as DataHub's own mapping spells it, with
 * the few names its mapping spells otherwise listed below.
 */

/** Where DataHub's enum does not split the registry name at its capitals. */
const ENUM_EXCEPTIONS: Record<string, string> = {
  corpuser: 'CORP_USER',
  mlModel: 'MLMODEL',
  mlModelGroup: 'MLMODEL_GROUP',
  mlModelDeployment: 'MLMODEL_DEPLOYMENT',
  mlFeature: 'MLFEATURE',
  mlFeatureTable: 'MLFEATURE_TABLE',
  mlPrimaryKey: 'MLPRIMARY_KEY',
};

/** The GraphQL object types this schema has (schema.ts); other entity types are answered as `OtherEntity`. */
const OBJECT_TYPES = new Map(Object.entries({
  dataset: 'Dataset',
  chart: 'Chart',
  dashboard: 'Dashboard',
  dataJob: 'DataJob',
  dataFlow: 'DataFlow',
  container: 'Container',
  tag: 'Tag',
  corpuser: 'CorpUser',
  corpGroup: 'CorpGroup',
  glossaryTerm: 'GlossaryTerm',
  glossaryNode: 'GlossaryNode',
  domain: 'Domain',
  dataProduct: 'DataProduct',
  dataPlatform: 'DataPlatform',
  structuredProperty: 'StructuredPropertyEntity',
  mlModel: 'MLModel',
  mlModelGroup: 'MLModelGroup',
  mlFeatureTable: 'MLFeatureTable',
  mlFeature: 'MLFeature',
  mlPrimaryKey: 'MLPrimaryKey',
  form: 'Form',
}).map(([name, type]) => [name.toLowerCase(), type]));

export const OTHER_ENTITY = 'OtherEntity';

/**
 * Every object type implementing Entity: one per entity type above, those only a structured
 * property's definition names (schema-structured.ts), DataHub's documents, and OtherEntity.
 */
export const ENTITY_OBJECT_TYPES: readonly string[] = [...new Set(OBJECT_TYPES.values()), 'DataTypeEntity', 'EntityTypeEntity', 'Document', OTHER_ENTITY];

/** The GraphQL object type of a registry entity type name (any case), OtherEntity when the schema has none. */
export function objectTypeOf(entityName: string): string {
  return OBJECT_TYPES.get(entityName.toLowerCase()) ?? OTHER_ENTITY;
}

function enumName(entityName: string): string {
  if (Object.hasOwn(ENUM_EXCEPTIONS, entityName)) return ENUM_EXCEPTIONS[entityName];
  // DataHub writes "DataHub" as one word: dataHubView is DATAHUB_VIEW.
  return entityName.replace(/^dataHub/, 'datahub').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export class EntityTypes {
  private readonly byEnum = new Map<string, string>();
  private readonly byName = new Map<string, string>();

  constructor(registry: Registry) {
    for (const spec of registry.entityTypes()) {
      const value = enumName(spec.name);
      this.byEnum.set(value, spec.name);
      this.byName.set(spec.name.toLowerCase(), value);
    }
  }

  /** Every enum value, in the registry's order. */
  enumValues(): string[] {
    return [...this.byEnum.keys()];
  }

  /** The registry name of an enum value (graphql-js has already checked it is one). */
  entityName(value: string): string {
    const name = this.byEnum.get(value);
    if (name === undefined) throw new ValidationError(`Unknown entity type ${value}`);
    return name;
  }

  /** The enum value of a registry entity type name (OTHER for a name the registry lacks). */
  enumOf(entityName: string): string {
    return this.byName.get(entityName.toLowerCase()) ?? 'OTHER';
  }

  /** The enum value of a URN's entity type. */
  enumOfUrn(urn: string): string {
    return this.enumOf(entityTypeOf(urn));
  }

  /** The GraphQL object type answering for a URN. */
  objectTypeOfUrn(urn: string): string {
    // URNs name their type in any case (the registry's lookup ignores it).
    return objectTypeOf(entityTypeOf(urn));
  }
}
