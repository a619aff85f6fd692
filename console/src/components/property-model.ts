import { api, V2 } from '../api';

/**
 * Structured properties as the console sees them, through the public entity API: a property is
 * the entity `urn:li:structuredProperty:<qualifiedName>` with `propertyDefinition` (and `status`
 * when soft deleted); an entity's values are its `structuredProperties` aspect.
 */
export interface PropertyValue {
  double?: number;
  string?: string;
}

export interface AllowedValue {
  value: PropertyValue;
  description?: string;
}

export interface Definition {
  qualifiedName: string;
  displayName?: string;
  valueType: string;
  cardinality?: 'SINGLE' | 'MULTIPLE';
  entityTypes: string[];
  allowedValues?: AllowedValue[];
  description?: string;
  version?: string;
  [other: string]: unknown;
}

export interface Property {
  urn: string;
  definition: Definition;
  /** Soft deleted: `status.removed`. */
  removed: boolean;
}

export interface Assignment {
  propertyUrn: string;
  values: PropertyValue[];
  [other: string]: unknown;
}

export interface StructuredPropertiesAspect {
  properties: Assignment[];
  [other: string]: unknown;
}

interface SearchAnswer {
  scrollId?: string;
  results: Array<{ urn: string; aspects: Record<string, { value: unknown } | undefined> }>;
}

/** Every entity of a type (following scroll ids), with the named aspects. */
async function all(type: string, aspects: string[], includeSoftDelete: boolean, signal?: AbortSignal) {
  const found: SearchAnswer['results'] = [];
  let scrollId: string | undefined;
  do {
    const query = new URLSearchParams({ count: '1000' });
    for (const aspect of aspects) query.append('aspects', aspect);
    if (includeSoftDelete) query.set('includeSoftDelete', 'true');
    if (scrollId) query.set('scrollId', scrollId);
    const { body } = await api<SearchAnswer>('GET', `${V2}/${type}?${query}`, { signal });
    found.push(...body.results);
    scrollId = body.scrollId ?? undefined;
  } while (scrollId);
  return found;
}

/** Every property with a definition, soft-deleted ones too when asked, by qualified name. */
export async function loadProperties(includeRemoved: boolean, signal?: AbortSignal): Promise<Property[]> {
  const results = await all('structuredProperty', ['propertyDefinition', 'status'], includeRemoved, signal);
  return results
    .filter((r) => r.aspects.propertyDefinition)
    .map((r) => ({
      urn: r.urn,
      definition: r.aspects.propertyDefinition!.value as Definition,
      removed: (r.aspects.status?.value as { removed?: boolean } | undefined)?.removed === true,
    }))
    .filter((p) => includeRemoved || !p.removed)
    .sort((a, b) => a.definition.qualifiedName.localeCompare(b.definition.qualifiedName));
}

export interface TypeOption {
  urn: string;
  displayName: string;
}

/** The data types (`dataType`) or entity types (`entityType`) the catalog knows, by display name. */
export async function loadTypes(kind: 'dataType' | 'entityType', signal?: AbortSignal): Promise<TypeOption[]> {
  const infoAspect = kind === 'dataType' ? 'dataTypeInfo' : 'entityTypeInfo';
  const results = await all(kind, [infoAspect], false, signal);
  return results
    .map((r) => {
      const info = r.aspects[infoAspect]?.value as { displayName?: string; qualifiedName?: string } | undefined;
      return { urn: r.urn, displayName: info?.displayName ?? typeName(r.urn) };
    })
    .sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** `urn:li:dataType:datahub.number` → `number`; `urn:li:entityType:datahub.dataset` → `dataset`. */
export function typeName(urn: string): string {
  return urn.replace(/^urn:li:[^:]+:/, '').replace(/^datahub\./, '');
}

/** The entity-type URN of an entity type name (`dataset`), or the URN itself. */
export function entityTypeUrn(type: string): string {
  return type.startsWith('urn:li:entityType:') ? type : `urn:li:entityType:datahub.${type}`;
}

/** Does the definition allow this entity type (names compared ignoring case, as the API does)? */
export function appliesTo(definition: Definition, entityType: string): boolean {
  const wanted = entityTypeUrn(entityType).toLowerCase();
  return (definition.entityTypes ?? []).some((t) => t.toLowerCase() === wanted);
}

export type ValueKind = 'number' | 'date' | 'urn' | 'rich_text' | 'string';

export function valueKind(valueType: string): ValueKind {
  const name = typeName(valueType).toLowerCase();
  return name === 'number' || name === 'date' || name === 'urn' || name === 'rich_text' ? name : 'string';
}

/** A value as text: numbers without a trailing `.0`. */
export function valueText(value: PropertyValue): string {
  if (typeof value.double === 'number') return String(value.double);
  return value.string ?? '';
}

/**
 * Text typed in a form as a value of the kind: a number that parses becomes `double`; anything
 * else goes as `string`, so that the server refuses it with its own message.
 */
export function toValue(kind: ValueKind, text: string): PropertyValue {
  const trimmed = text.trim();
  if (kind === 'number' && trimmed !== '' && Number.isFinite(Number(trimmed))) return { double: Number(trimmed) };
  return { string: kind === 'number' || kind === 'date' || kind === 'urn' ? trimmed : text };
}

/** A property in words: `Tier (io.acme.tier)`, or `Retention (days) — io.acme.retention` when the display name has parentheses already. */
export function propertyLabel(definition: Definition): string {
  const { displayName, qualifiedName } = definition;
  if (!displayName) return qualifiedName;
  // A display name with parentheses of its own ("Retention (days)") takes the qualified name after a dash, not in a second pair.
  return /[()]/.test(displayName) ? `${displayName} — ${qualifiedName}` : `${displayName} (${qualifiedName})`;
}

/** A URN as one JSON-pointer segment (RFC 6901). */
export function pointerSegment(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}
