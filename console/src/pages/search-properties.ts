import { api, V3 } from '../api';
import { shortUrn } from '../components/common';

/**
 * Structured-property definitions, as the search filters and the entity page need them: listed
 * through the API (the `structuredProperty` entities' propertyDefinition aspect; soft-deleted ones
 * are not searchable and not listed).
 */
export type ValueKind = 'number' | 'date' | 'urn' | 'string';

export interface PropertyDef {
  urn: string;
  qualifiedName: string;
  displayName: string;
  kind: ValueKind;
  /** Allowed values as the search index spells them (numbers as decimal text), with descriptions. */
  allowed?: Array<{ value: string; description?: string }>;
  hidden: boolean;
}

interface Definition {
  qualifiedName?: string;
  displayName?: string;
  valueType?: string;
  allowedValues?: Array<{ value?: { double?: number; string?: string }; description?: string }>;
}

type Listed = { urn: string; propertyDefinition?: { value?: Definition }; structuredPropertySettings?: { value?: { isHidden?: boolean } } };

export function kindOf(valueType: string | undefined): ValueKind {
  const name = valueType?.replace(/^urn:li:dataType:(datahub\.)?/, '');
  return name === 'number' || name === 'date' || name === 'urn' ? name : 'string';
}

/** A stored value (`{double}` or `{string}`) as text. */
export function valueText(value: unknown): string {
  if (value && typeof value === 'object') {
    const v = value as { double?: unknown; string?: unknown };
    if (typeof v.double === 'number') return String(v.double);
    if (typeof v.string === 'string') return v.string;
  }
  return JSON.stringify(value);
}

/** A value for people: URNs shortened. */
export function valueLabel(def: PropertyDef | undefined, value: string): string {
  return def?.kind === 'urn' ? shortUrn(value) : value;
}

export async function loadDefinitions(signal?: AbortSignal): Promise<PropertyDef[]> {
  const defs: PropertyDef[] = [];
  let scrollId: string | null = null;
  do {
    const query: string = `count=1000${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`;
    const { body } = await api<{ scrollId: string | null; entities: Listed[] }>('POST', `${V3}/scroll?${query}`, {
      body: { entities: ['structuredProperty'], aspects: ['propertyDefinition', 'structuredPropertySettings'] },
      signal,
    });
    for (const e of body.entities) {
      const d = e.propertyDefinition?.value;
      if (!d) continue;
      const qualifiedName = d.qualifiedName ?? e.urn.replace(/^urn:li:structuredProperty:/, '');
      defs.push({
        urn: e.urn,
        qualifiedName,
        displayName: d.displayName?.trim() || qualifiedName,
        kind: kindOf(d.valueType),
        allowed: d.allowedValues?.length ? d.allowedValues.map((a) => ({ value: valueText(a.value), description: a.description })) : undefined,
        hidden: e.structuredPropertySettings?.value?.isHidden === true,
      });
    }
    scrollId = body.scrollId;
  } while (scrollId);
  return defs.sort((a, b) => a.displayName.localeCompare(b.displayName));
}
