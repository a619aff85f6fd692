import { isRecord } from '../../json.js';
import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent } from '../model.js';
import { mergeByKey, records, text, urnId } from '../values.js';

/** A tag or glossary term attached to an entity or a field. */
interface Association {
  urn: string;
  context?: string;
  sourceDetail?: unknown;
}

function associations(value: unknown, list: string, urnKey: string): Association[] {
  return records(value, list).flatMap((item) => {
    const urn = text(item, urnKey);
    if (urn === undefined) return [];
    const attribution = item.attribution;
    return [{ urn, context: text(item, 'context'), sourceDetail: isRecord(attribution) ? (attribution.sourceDetail ?? {}) : undefined }];
  });
}

export const tagsOf = (globalTags: unknown) => associations(globalTags, 'tags', 'tag');
export const termsOf = (glossaryTerms: unknown) => associations(glossaryTerms, 'terms', 'urn');

type Kind = 'tag' | 'term';

const NAMES = { tag: { category: 'TAG', key: 'tagUrn', noun: 'Tag' }, term: { category: 'GLOSSARY_TERM', key: 'termUrn', noun: 'Glossary term' } } as const;

/**
 * Tags or terms added to and removed from an entity, in URN order: MINOR each. The parameters
 * are DataHub's: the URN, the association's context (`{}` without one) and its attribution's
 * source details as JSON text.
 */
export function associationEvents(kind: Kind, base: readonly Association[], target: readonly Association[], entityUrn: string): ChangeEvent[] {
  const { category, key, noun } = NAMES[kind];
  return mergeByKey(base, target, (a) => a.urn).flatMap(({ base: was, target: now }) => {
    if (was && now) return [];
    const association = (now ?? was)!;
    const added = now !== undefined;
    return [
      changeEvent({
        entityUrn,
        category,
        operation: added ? 'ADD' : 'REMOVE',
        modifier: association.urn,
        parameters: {
          [key]: association.urn,
          context: association.context ?? '{}',
          sourceDetails: association.sourceDetail === undefined ? '{}' : JSON.stringify(association.sourceDetail),
        },
        semVerChange: 'MINOR',
        description: `${noun} '${urnId(association.urn)}' was ${added ? 'added to' : 'removed from'} '${entityUrn}'.`,
      }),
    ];
  });
}

/**
 * The same for a schema field: the event is the field's (its schemaField URN), and its parameters
 * name the field and the dataset instead of the attribution, as DataHub's schema field events do.
 */
export function fieldAssociationEvents(
  kind: Kind,
  base: readonly Association[],
  target: readonly Association[],
  field: { urn: string; path: string; datasetUrn: string },
): ChangeEvent[] {
  const { key } = NAMES[kind];
  return associationEvents(kind, base, target, field.urn).map((event) => {
    const urn = event.modifier!;
    return { ...event, parameters: { fieldPath: field.path, parentUrn: field.datasetUrn, [key]: urn, context: event.parameters!.context } };
  });
}

export const globalTagsDiffer: AspectDiffer = {
  aspect: 'globalTags',
  categories: ['TAG'],
  events: (previous, current, _category, entityUrn) => associationEvents('tag', tagsOf(previous), tagsOf(current), entityUrn),
};

export const glossaryTermsDiffer: AspectDiffer = {
  aspect: 'glossaryTerms',
  categories: ['GLOSSARY_TERM'],
  events: (previous, current, _category, entityUrn) => associationEvents('term', termsOf(previous), termsOf(current), entityUrn),
};
