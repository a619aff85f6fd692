import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent, type ChangeOperation } from '../model.js';
import { mergeByKey, records, text } from '../values.js';

/**
 * A description added, removed or changed: one event, MINOR whatever happened (DataHub's rule for
 * an entity's own description). `withParameters`: datasetProperties carries the description
 * there; editableDatasetProperties' events carry none.
 */
function descriptionEvents(previous: unknown, current: unknown, entityUrn: string, withParameters: boolean): ChangeEvent[] {
  const was = text(previous, 'description');
  const now = text(current, 'description');
  if (was === now) return [];
  const operation: ChangeOperation = was === undefined ? 'ADD' : now === undefined ? 'REMOVE' : 'MODIFY';
  const description =
    operation === 'ADD'
      ? `The description of '${entityUrn}' was added: '${now}'.`
      : operation === 'REMOVE'
        ? `The description of '${entityUrn}' was removed: '${was}'.`
        : `The description of '${entityUrn}' changed from '${was}' to '${now}'.`;
  return [
    changeEvent({
      entityUrn,
      category: 'DOCUMENTATION',
      operation,
      ...(withParameters ? { parameters: { description: now ?? was } } : {}),
      semVerChange: 'MINOR',
      description,
    }),
  ];
}

export const datasetPropertiesDiffer: AspectDiffer = {
  aspect: 'datasetProperties',
  categories: ['DOCUMENTATION'],
  events: (previous, current, _category, entityUrn) => descriptionEvents(previous, current, entityUrn, true),
};

export const editableDatasetPropertiesDiffer: AspectDiffer = {
  aspect: 'editableDatasetProperties',
  categories: ['DOCUMENTATION'],
  events: (previous, current, _category, entityUrn) => descriptionEvents(previous, current, entityUrn, false),
};

/** Links added or removed (MINOR) and a link whose description changed (PATCH), in URL order. */
export const institutionalMemoryDiffer: AspectDiffer = {
  aspect: 'institutionalMemory',
  categories: ['DOCUMENTATION'],
  events(previous, current, _category, entityUrn): ChangeEvent[] {
    const links = (value: unknown) => records(value, 'elements').filter((e) => typeof e.url === 'string');
    return mergeByKey(links(previous), links(current), (e) => e.url as string).flatMap(({ base, target }) => {
      const url = ((target ?? base)!.url) as string;
      if (base && target) {
        if (text(base, 'description') === text(target, 'description')) return [];
        return [
          changeEvent({
            entityUrn, category: 'DOCUMENTATION', operation: 'MODIFY', modifier: url, semVerChange: 'PATCH',
            description: `The description of the link '${url}' of '${entityUrn}' changed from '${text(base, 'description')}' to '${text(target, 'description')}'.`,
          }),
        ];
      }
      const added = target !== undefined;
      return [
        changeEvent({
          entityUrn, category: 'DOCUMENTATION', operation: added ? 'ADD' : 'REMOVE', modifier: url, semVerChange: 'MINOR',
          description: `The link '${url}' (${text(target ?? base, 'description')}) was ${added ? 'added to' : 'removed from'} '${entityUrn}'.`,
        }),
      ];
    });
  },
};
