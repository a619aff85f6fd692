import type { AspectDiffer } from '../differ.js';
import type { ChangeCategory } from '../model.js';
import { glossaryTermsDiffer, globalTagsDiffer } from './associations.js';
import { deprecationDiffer } from './deprecation.js';
import { datasetPropertiesDiffer, editableDatasetPropertiesDiffer, institutionalMemoryDiffer } from './documentation.js';
import { domainsDiffer } from './domains.js';
import { editableSchemaMetadataDiffer } from './editable-schema.js';
import { upstreamLineageDiffer } from './lineage.js';
import { ownershipDiffer } from './ownership.js';
import { schemaMetadataDiffer } from './schema-metadata.js';
import { structuredPropertiesDiffer } from './structured-properties.js';

/**
 * The aspects a timeline reads, by name, whatever the entity type: an entity has changes in a
 * category when it has an aspect whose differ names it. (upstreamLineage is read when an entity
 * has it, before or after the registry knows it.)
 */
export const DIFFERS: ReadonlyMap<string, AspectDiffer> = new Map(
  [
    globalTagsDiffer,
    glossaryTermsDiffer,
    ownershipDiffer,
    schemaMetadataDiffer,
    editableSchemaMetadataDiffer,
    datasetPropertiesDiffer,
    editableDatasetPropertiesDiffer,
    institutionalMemoryDiffer,
    domainsDiffer,
    deprecationDiffer,
    structuredPropertiesDiffer,
    upstreamLineageDiffer,
  ].map((d) => [d.aspect, d]),
);

/** The aspects that feed a category (in the order above). */
export function aspectsOf(category: ChangeCategory): string[] {
  return [...DIFFERS.values()].filter((d) => d.categories.includes(category)).map((d) => d.aspect);
}
