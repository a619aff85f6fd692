import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent, type ChangeOperation } from '../model.js';
import { schemaFieldUrn } from '../schema-fields.js';
import { mergeByKey, records, text } from '../values.js';
import { fieldAssociationEvents, tagsOf, termsOf } from './associations.js';

type FieldInfo = Record<string, unknown> & { fieldPath: string };

/**
 * editableSchemaMetadata: what users edit on fields, compared field by field (by path). Its
 * descriptions (DOCUMENTATION: added or removed MINOR, edited PATCH; DataHub's events name the
 * field path as modifier and carry no parameters), its tags (TAG) and its terms (GLOSSARY_TERM).
 */
export const editableSchemaMetadataDiffer: AspectDiffer = {
  aspect: 'editableSchemaMetadata',
  categories: ['DOCUMENTATION', 'TAG', 'GLOSSARY_TERM'],
  events(previous, current, category, datasetUrn) {
    const infos = (value: unknown) => records(value, 'editableSchemaFieldInfo').filter((f): f is FieldInfo => typeof f.fieldPath === 'string');
    return mergeByKey(infos(previous), infos(current), (f) => f.fieldPath).flatMap(({ base, target }): ChangeEvent[] => {
      // DataHub names the field by its earlier path when there is one (paths match when both exist).
      const path = (base ?? target)!.fieldPath;
      const field = { urn: schemaFieldUrn(datasetUrn, path), path, datasetUrn };
      if (category === 'TAG') return fieldAssociationEvents('tag', tagsOf(base?.globalTags), tagsOf(target?.globalTags), field);
      if (category === 'GLOSSARY_TERM') return fieldAssociationEvents('term', termsOf(base?.glossaryTerms), termsOf(target?.glossaryTerms), field);
      const was = text(base, 'description');
      const now = text(target, 'description');
      if (was === now) return [];
      const operation: ChangeOperation = was === undefined ? 'ADD' : now === undefined ? 'REMOVE' : 'MODIFY';
      return [
        changeEvent({
          entityUrn: field.urn,
          category: 'DOCUMENTATION',
          operation,
          modifier: path,
          semVerChange: operation === 'MODIFY' ? 'PATCH' : 'MINOR',
          description:
            operation === 'ADD'
              ? `The edited description of the field '${path}' was added: '${now}'.`
              : operation === 'REMOVE'
                ? `The edited description of the field '${path}' was removed: '${was}'.`
                : `The edited description of the field '${path}' changed from '${was}' to '${now}'.`,
        }),
      ];
    });
  },
};
