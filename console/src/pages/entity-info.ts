import { shortUrn } from '../components/common';

/**
 * Reading what the console shows of an entity out of its aspects, in the v3 shape
 * `{urn, <aspect>: {value, systemMetadata?}}` (search results and entity reads alike).
 */
export type EntityV3 = { urn: string } & Record<string, unknown>;

/** The aspects that name and describe entities, per type (search.json's text sources). */
const INFO_ASPECTS = [
  'datasetProperties',
  'chartInfo',
  'dashboardInfo',
  'dataJobInfo',
  'dataFlowInfo',
  'containerProperties',
  'domainProperties',
  'dataProductProperties',
  'glossaryTermInfo',
  'glossaryNodeInfo',
  'tagProperties',
  'corpUserInfo',
  'corpGroupInfo',
  'dataPlatformInfo',
  'propertyDefinition',
  'testInfo',
  'ownershipTypeInfo',
  'dataTypeInfo',
  'entityTypeInfo',
  'formInfo',
];
const EDITABLE_ASPECTS = [
  'editableDatasetProperties',
  'editableChartProperties',
  'editableDashboardProperties',
  'editableDataJobProperties',
  'editableDataFlowProperties',
  'editableContainerProperties',
];

/** What a search result needs, and nothing more. */
export const DISPLAY_ASPECTS = [...INFO_ASPECTS, ...EDITABLE_ASPECTS, 'globalTags', 'dataPlatformInstance'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An aspect's value, or undefined. */
export function aspect(entity: EntityV3, name: string): Json | undefined {
  const wrapped = entity[name];
  return isObject(wrapped) && isObject(wrapped.value) ? wrapped.value : undefined;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export function entityTypeOf(urn: string): string {
  return /^urn:li:([^:]+):/.exec(urn)?.[1] ?? '';
}

/** The aspects a name is read from (a read of names asks for these only). */
export const NAME_ASPECTS: readonly string[] = INFO_ASPECTS;

/** The name the entity's info aspects record, if one does. */
export function recordedNameOf(entity: EntityV3): string | undefined {
  for (const name of INFO_ASPECTS) {
    const value = aspect(entity, name);
    const found = value && (text(value.displayName) ?? text(value.name) ?? text(value.title));
    if (found) return found;
  }
  return undefined;
}

export function nameOf(entity: EntityV3): string {
  return recordedNameOf(entity) ?? shortUrn(entity.urn);
}

export function descriptionOf(entity: EntityV3): string | undefined {
  for (const name of EDITABLE_ASPECTS) {
    const found = text(aspect(entity, name)?.description);
    if (found) return found;
  }
  for (const name of INFO_ASPECTS) {
    const value = aspect(entity, name);
    const found = value && (text(value.description) ?? text(value.definition));
    if (found) return found;
  }
  return undefined;
}

/** The platform URN: dataPlatformInstance, else the one a dataset's URN names. */
export function platformOf(entity: EntityV3): string | undefined {
  const platform = aspect(entity, 'dataPlatformInstance')?.platform;
  if (typeof platform === 'string') return platform;
  return /^urn:li:dataset:\((urn:li:dataPlatform:[^,]+),/.exec(entity.urn)?.[1];
}

export function tagsOf(entity: EntityV3): string[] {
  const tags = aspect(entity, 'globalTags')?.tags;
  return Array.isArray(tags) ? tags.flatMap((t) => (isObject(t) && typeof t.tag === 'string' ? [t.tag] : [])) : [];
}

export function termsOf(entity: EntityV3): string[] {
  const terms = aspect(entity, 'glossaryTerms')?.terms;
  return Array.isArray(terms) ? terms.flatMap((t) => (isObject(t) && typeof t.urn === 'string' ? [t.urn] : [])) : [];
}

export function ownersOf(entity: EntityV3): Array<{ owner: string; type: string }> {
  const owners = aspect(entity, 'ownership')?.owners;
  return Array.isArray(owners)
    ? owners.flatMap((o) => (isObject(o) && typeof o.owner === 'string' ? [{ owner: o.owner, type: typeof o.type === 'string' ? o.type : typeof o.typeUrn === 'string' ? shortUrn(o.typeUrn) : '' }] : []))
    : [];
}

/** The owners as stored: the deprecated `type` and the ownership type's URN, each when present. */
export function ownerEntriesOf(entity: EntityV3): Array<{ owner: string; type?: string; typeUrn?: string }> {
  const owners = aspect(entity, 'ownership')?.owners;
  return Array.isArray(owners)
    ? owners.flatMap((o) =>
        isObject(o) && typeof o.owner === 'string'
          ? [{ owner: o.owner, ...(typeof o.type === 'string' ? { type: o.type } : {}), ...(typeof o.typeUrn === 'string' ? { typeUrn: o.typeUrn } : {}) }]
          : [],
      )
    : [];
}

/** The aspect names of an entity in the v3 shape (everything but `urn`). */
export function aspectNames(entity: EntityV3): string[] {
  return Object.keys(entity)
    .filter((k) => k !== 'urn' && isObject(entity[k]))
    .sort();
}

/** An aspect's latest version number (systemMetadata.version), 1 when not told. */
export function versionOf(entity: EntityV3, name: string): number {
  const wrapped = entity[name];
  const version = isObject(wrapped) && isObject(wrapped.systemMetadata) ? Number(wrapped.systemMetadata.version) : NaN;
  return Number.isInteger(version) && version > 0 ? version : 1;
}
