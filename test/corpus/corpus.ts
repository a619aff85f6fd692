import { createHash } from 'node:crypto';
import type { AspectSpec, EntitySpec, Registry } from '../../src/registry/registry.js';
import { formatUrn, parseUrn } from '../../src/urn/urn.js';
import { synthesize } from '../registry/synthesize.js';

/**
 * urnbase's own corpus of DataHub's model: one entity of every entity type per write path, with
 * every aspect the type allows (its key aspect too), values made from the registry's schemas
 * (synthesize.ts, every field filled) except where a rule of the model wants a realistic record
 * (structured properties and their definitions, a metadata test's definition, forms), which are written
 * here by hand. Nothing in it comes from DataHub's fixtures.
 */

export type WritePath = 'v2' | 'v3' | 'restli' | 'mce';

export interface CorpusEntity {
  entity: EntitySpec;
  urn: string;
  /** Aspect name → value, in writing order (a structured property's definition before its values). */
  aspects: Map<string, unknown>;
}

/** The URN of the path's entity of a type: string key fields named for the path, URN and enum fields as the schema makes them. */
export function corpusUrn(registry: Registry, entity: EntitySpec, path: WritePath): string {
  const key = synthesize(registry, entity.keyAspect.schema, 'minimal') as Record<string, unknown>;
  const keySchema = registry.deref(entity.keyAspect.schema);
  const parts = (entity.keyAspect.keyFields ?? []).map((field) => {
    const s = registry.deref(keySchema.properties?.[field] ?? {});
    if (s.type === 'string' && s.format === undefined && !Array.isArray(s.enum)) return `corpus_${path}`;
    return String(key[field]);
  });
  return formatUrn(entity.name, parts);
}

/** The structured property each path's entities carry a value of. */
export function corpusPropertyUrn(registry: Registry, path: WritePath): string {
  return corpusUrn(registry, registry.entityType('structuredProperty')!, path);
}

/** Values a rule of the model checks beyond the schema: realistic records, written by hand. */
function handWritten(registry: Registry, aspect: AspectSpec, path: WritePath): unknown {
  const carriers = registry.entityTypes().filter((e) => e.aspects.has('structuredProperties'));
  switch (aspect.name) {
    case 'propertyDefinition':
      return {
        qualifiedName: `corpus_${path}`,
        displayName: 'Retention class',
        valueType: 'urn:li:dataType:datahub.string',
        cardinality: 'SINGLE',
        entityTypes: carriers.map((e) => `urn:li:entityType:datahub.${e.name}`),
        allowedValues: [{ value: { string: 'gold' }, description: 'Kept seven years' }, { value: { string: 'bronze' } }],
        description: 'How long the asset is kept',
        immutable: false,
      };
    case 'status':
      // Not removed: a soft-deleted structured property could not be given values.
      return { removed: false };
    case 'structuredPropertySettings':
      return { isHidden: false, showInSearchFilters: true, showInAssetSummary: true, showAsAssetBadge: false, showInColumnsTable: false };
    case 'structuredProperties':
      return { properties: [{ propertyUrn: corpusPropertyUrn(registry, path), values: [{ string: 'gold' }] }] };
    // Forms: a prompt on the path's property; assets name no form, since a form whose filter they
    // do not match is taken off them (forms' semantics are tested in test/forms/).
    case 'formInfo':
      return {
        name: 'Retention review',
        description: 'Say how long the asset is kept',
        type: 'VERIFICATION',
        prompts: [
          { id: `corpus_${path}_retention`, title: 'Retention class?', description: 'Gold or bronze', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: corpusPropertyUrn(registry, path) }, required: true },
        ],
        actors: { owners: true, ownershipTypes: ['urn:li:ownershipType:__system__business_owner'], users: ['urn:li:corpuser:jdoe'], groups: ['urn:li:corpGroup:stewards'] },
      };
    case 'dynamicFormAssignment':
      return { filter: { or: [{ and: [{ field: 'platform', values: [`urn:li:dataPlatform:corpus_${path}`], condition: 'EQUAL', negated: false }] }] } };
    case 'forms':
      return { incompleteForms: [], completedForms: [], verifications: [] };
    case 'testInfo':
      return {
        name: 'Owned datasets',
        category: 'Governance',
        description: 'Every dataset has an owner',
        definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }) },
      };
    default:
      return undefined;
  }
}

/** The value of an aspect in the corpus: hand-written where a rule wants it, else every field the schema has. */
export function corpusValue(registry: Registry, entity: EntitySpec, aspect: AspectSpec, urn: string, path: WritePath): unknown {
  if (aspect === entity.keyAspect) return registry.keyOf(parseUrn(urn), entity);
  const value = handWritten(registry, aspect, path) ?? synthesize(registry, aspect.schema, 'full');
  // A timeseries point's partition is a partition or a time window, not both (the schema has both fields).
  const spec = (value as { partitionSpec?: Record<string, unknown> }).partitionSpec;
  if (aspect.kind === 'timeseries' && spec) delete spec.timePartition;
  return value;
}

/**
 * The corpus a path writes: every entity type with every aspect (MCE snapshots: the types that
 * have a snapshot record, with the aspects its union carries). The structured property comes first, then the form.
 */
export function buildCorpus(registry: Registry, path: WritePath): CorpusEntity[] {
  // The structured property first, then the form that asks for it, then the rest.
  const rank = (e: EntitySpec) => (e.name === 'structuredProperty' ? 2 : e.name === 'form' ? 1 : 0);
  const types = [...registry.entityTypes()].sort((a, b) => rank(b) - rank(a));
  const corpus: CorpusEntity[] = [];
  for (const entity of types) {
    const snapshot = registry.snapshotOf(entity);
    if (path === 'mce' && !snapshot) continue;
    const specs = path === 'mce' ? snapshot!.aspects : [...entity.aspects.values()];
    const urn = corpusUrn(registry, entity, path);
    const aspects = new Map<string, unknown>();
    for (const aspect of specs) aspects.set(aspect.name, corpusValue(registry, entity, aspect, urn, path));
    corpus.push({ entity, urn, aspects });
  }
  return corpus;
}

/** What a value reads back as: the server stamps a metadata test definition's md5. */
export function readBackAs(aspect: string, value: unknown): unknown {
  if (aspect !== 'testInfo') return value;
  const info = value as { definition: { json: string } };
  return { ...info, definition: { ...info.definition, md5: createHash('md5').update(info.definition.json).digest('hex') } };
}
