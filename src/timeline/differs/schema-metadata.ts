import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeCategory, type ChangeEvent, type ChangeOperation, type SemVerChange } from '../model.js';
import { downgradedFieldPath, schemaFieldUrn } from '../schema-fields.js';
import { compare, strings } from '../values.js';
import { fieldAssociationEvents, tagsOf } from './associations.js';
import { alignFields, nativeTypes, schemaFields, type Alignment, type SchemaField } from './schema-alignment.js';

// The descriptions of added, removed and renamed fields are DataHub's words: its smoke fixtures
// (v1 and v2 timeline.json) compare them. The others are ours.
const INCOMPATIBLE = 'A backwards incompatible change due to';
const COMPATIBLE = 'A forwards & backwards compatible change due to';

type Modification = 'RENAME' | 'TYPE_CHANGE' | 'OTHER';

/** A structural change of one field (DataHub's DatasetSchemaFieldChangeEvent). */
function fieldEvent(
  datasetUrn: string,
  field: Pick<SchemaField, 'path' | 'nullable'>,
  operation: ChangeOperation,
  semVerChange: SemVerChange,
  modificationCategory: Modification,
  description: string,
): ChangeEvent {
  const urn = schemaFieldUrn(datasetUrn, field.path);
  return changeEvent({
    entityUrn: datasetUrn,
    category: 'TECHNICAL_SCHEMA',
    operation,
    modifier: urn,
    parameters: { fieldPath: field.path, fieldUrn: urn, nullable: field.nullable, modificationCategory },
    semVerChange,
    description,
  });
}

/**
 * TECHNICAL_SCHEMA: a field removed is MAJOR (it breaks readers), added MINOR, renamed MINOR, its
 * native type changed MAJOR, the primary key changed MAJOR. DOCUMENTATION and TAG: the fields'
 * descriptions and tags, compared between the fields the schema diff pairs up.
 */
export const schemaMetadataDiffer: AspectDiffer = {
  aspect: 'schemaMetadata',
  categories: ['TECHNICAL_SCHEMA', 'DOCUMENTATION', 'TAG'],
  events(previous, current, category, datasetUrn) {
    const events = alignFields(schemaFields(previous), schemaFields(current)).flatMap((step) => stepEvents(step, category, datasetUrn));
    if (category === 'TECHNICAL_SCHEMA') events.push(...primaryKeyEvents(previous, current, datasetUrn));
    return events;
  },
};

function stepEvents(step: Alignment, category: ChangeCategory, datasetUrn: string): ChangeEvent[] {
  const structural = category === 'TECHNICAL_SCHEMA';
  switch (step.kind) {
    case 'same': {
      const { base, target } = step;
      const retyped = base.nativeType !== target.nativeType && structural ? [typeChange(datasetUrn, base, target, base.nativeType, target.nativeType)] : [];
      return [...retyped, ...propertyEvents(base, target, category, datasetUrn)];
    }
    case 'moved': {
      const { group } = step;
      const [base, target] = [group.base[0], group.target[0]];
      const [from, to] = [nativeTypes(group.base), nativeTypes(group.target)];
      const retyped = from !== to && structural ? [typeChange(datasetUrn, base, target, from, to)] : [];
      // A field of the column that kept its path had its documentation and tags compared already.
      return [...retyped, ...(group.hasStableField ? [] : propertyEvents(base, target, category, datasetUrn))];
    }
    case 'renamed': {
      const { base, target } = step;
      const renamed = structural
        ? [fieldEvent(datasetUrn, base, 'MODIFY', 'MINOR', 'RENAME', `${COMPATIBLE} renaming of the field '${downgradedFieldPath(base.path)} to ${downgradedFieldPath(target.path)}'.`)]
        : [];
      return [...renamed, ...propertyEvents(base, target, category, datasetUrn)];
    }
    case 'removed': {
      const removed = structural ? [fieldEvent(datasetUrn, step.base, 'REMOVE', 'MAJOR', 'OTHER', `${INCOMPATIBLE} removal of field: '${downgradedFieldPath(step.base.path)}'.`)] : [];
      return [...removed, ...propertyEvents(step.base, undefined, category, datasetUrn)];
    }
    case 'added': {
      const added = structural ? [fieldEvent(datasetUrn, step.target, 'ADD', 'MINOR', 'OTHER', `${COMPATIBLE} the newly added field '${downgradedFieldPath(step.target.path)}'.`)] : [];
      return [...added, ...propertyEvents(undefined, step.target, category, datasetUrn)];
    }
  }
}

function typeChange(datasetUrn: string, base: SchemaField, target: SchemaField, from: string, to: string): ChangeEvent {
  return fieldEvent(datasetUrn, base, 'MODIFY', 'MAJOR', 'TYPE_CHANGE', `${INCOMPATIBLE} a new native type of the field '${downgradedFieldPath(target.path)}': '${from}' became '${to}'.`);
}

/** A field's description (DOCUMENTATION) or tags (TAG), the field named by its target side's path when it has one. */
function propertyEvents(base: SchemaField | undefined, target: SchemaField | undefined, category: ChangeCategory, datasetUrn: string): ChangeEvent[] {
  const path = (target ?? base)!.path;
  const field = { urn: schemaFieldUrn(datasetUrn, path), path, datasetUrn };
  if (category === 'TAG') return fieldAssociationEvents('tag', tagsOf(base?.globalTags), tagsOf(target?.globalTags), field);
  if (category !== 'DOCUMENTATION') return [];
  const was = base?.description;
  const now = target?.description;
  if (was === now) return [];
  const operation: ChangeOperation = was === undefined ? 'ADD' : now === undefined ? 'REMOVE' : 'MODIFY';
  return [
    changeEvent({
      entityUrn: field.urn,
      category: 'DOCUMENTATION',
      operation,
      parameters: { description: now ?? was, ...(operation === 'MODIFY' ? { previousDescription: was } : {}), fieldPath: path, parentUrn: datasetUrn },
      // Documentation added or removed is MINOR, edited PATCH (DataHub's rule for field descriptions).
      semVerChange: operation === 'MODIFY' ? 'PATCH' : 'MINOR',
      description:
        operation === 'ADD'
          ? `The description of the field '${path}' was added: '${now}'.`
          : operation === 'REMOVE'
            ? `The description of the field '${path}' was removed: '${was}'.`
            : `The description of the field '${path}' changed from '${was}' to '${now}'.`,
    }),
  ];
}

/** Key fields dropped from, then added to, the primary key: MAJOR each (sorted; DataHub's order is a hash set's). */
function primaryKeyEvents(previous: unknown, current: unknown, datasetUrn: string): ChangeEvent[] {
  const was = new Set(strings(previous, 'primaryKeys'));
  const now = new Set(strings(current, 'primaryKeys'));
  const dropped = [...was].filter((k) => !now.has(k)).sort(compare);
  const added = [...now].filter((k) => !was.has(k)).sort(compare);
  return [
    ...dropped.map((path) => fieldEvent(datasetUrn, { path, nullable: false }, 'MODIFY', 'MAJOR', 'OTHER', `${INCOMPATIBLE} the field '${path}' leaving the primary key.`)),
    ...added.map((path) => fieldEvent(datasetUrn, { path, nullable: false }, 'MODIFY', 'MAJOR', 'OTHER', `${INCOMPATIBLE} the field '${path}' joining the primary key.`)),
  ];
}
