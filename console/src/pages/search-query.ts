import { V3 } from '../api';
import { DISPLAY_ASPECTS } from './entity-info';
import type { PropertyDef } from './search-properties';

/**
 * The search's state as the URL holds it (`#/search?query=…&type=dataset&tags=urn:li:tag:pii
 * &p.tier=gold&pmin.retention=90&sort=name`) and the scroll request it makes.
 */
export const PAGE_SIZE = 20;

/** Keyword facets: the index field, its URL parameter, its title. */
export const FACETS = [
  { field: 'entity', param: 'type', title: 'Type' },
  { field: 'platform', param: 'platform', title: 'Platform' },
  { field: 'tags', param: 'tags', title: 'Tags' },
  { field: 'glossaryTerms', param: 'glossaryTerms', title: 'Glossary terms' },
  { field: 'domains', param: 'domains', title: 'Domains' },
] as const;

/**
 * The entity types the catalog writes itself at its first start (the registry's seed: every data
 * platform DataHub knows, the data types of structured properties, one entityType per registered
 * type). They are definitions rather than metadata anyone ingested: over a hundred of them would
 * head every empty search and fill the Type facet, so a search leaves them out unless asked.
 * test/console/search.test.ts checks this list against Registry.seed().
 */
export const SYSTEM_TYPES = ['dataPlatform', 'dataType', 'entityType'] as const;

/** The URL parameter that brings system entities back (`system=1`). */
export const SYSTEM = 'system';

/** URL parameters of a property filter: exact values, and the bounds of a range. */
export const EXACT = 'p.';
export const MIN = 'pmin.';
export const MAX = 'pmax.';

export const propertyField = (qualifiedName: string) => `structuredProperties.${qualifiedName}`;

export interface Criterion {
  field: string;
  condition: string;
  values: string[];
  negated?: boolean;
}

export interface ScrollCall {
  path: string;
  body: { entities?: string[]; aspects?: string[]; filter?: { and: Array<{ criteria: Criterion[] }> }; facets: string[]; sortCriteria?: Array<{ field: string; order: 'ASCENDING' | 'DESCENDING' }> };
}

/**
 * Two requests: a page of results with the aspects shown (no facets: it stays fast however many
 * entities match), and the facets' counts over the whole result (one URN, no aspects), which
 * paging and sorting leave unchanged.
 */
export function scrollCalls(params: URLSearchParams, defs: PropertyDef[]): { results: ScrollCall; facets: ScrollCall } {
  const query = new URLSearchParams();
  const text = params.get('query')?.trim();
  if (text) query.set('query', text);

  const criteria: Criterion[] = [];
  for (const facet of FACETS) {
    if (facet.param === 'type') continue;
    const values = params.getAll(facet.param);
    if (values.length) criteria.push({ field: facet.field, condition: 'EQUAL', values });
  }
  const exact = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (key.startsWith(EXACT)) exact.set(key.slice(EXACT.length), [...(exact.get(key.slice(EXACT.length)) ?? []), value]);
    else if (key.startsWith(MIN) && value !== '') criteria.push({ field: propertyField(key.slice(MIN.length)), condition: 'GREATER_THAN_OR_EQUAL_TO', values: [value] });
    else if (key.startsWith(MAX) && value !== '') criteria.push({ field: propertyField(key.slice(MAX.length)), condition: 'LESS_THAN_OR_EQUAL_TO', values: [value] });
  }
  for (const [name, values] of exact) criteria.push({ field: propertyField(name), condition: 'EQUAL', values });
  const types = params.getAll('type');
  // Left out by the server, so that counts and facets leave them out too. Types chosen in the
  // Type facet are searched whatever they are.
  if (types.length === 0 && params.get(SYSTEM) !== '1') {
    criteria.push({ field: 'urn', condition: 'STARTS_WITH', values: SYSTEM_TYPES.map((t) => `urn:li:${t}:`), negated: true });
  }

  const where: Pick<ScrollCall['body'], 'entities' | 'filter'> = {};
  if (types.length) where.entities = types;
  if (criteria.length) where.filter = { and: [{ criteria }] };

  const results: ScrollCall = { path: '', body: { ...where, aspects: DISPLAY_ASPECTS, facets: [] } };
  const sort = params.get('sort');
  if (sort === 'name' || sort === '-name') results.body.sortCriteria = [{ field: 'name', order: sort === 'name' ? 'ASCENDING' : 'DESCENDING' }];
  const page = new URLSearchParams(query);
  page.set('count', String(PAGE_SIZE));
  const scrollId = params.get('scrollId');
  if (scrollId) page.set('scrollId', scrollId);
  results.path = `${V3}/scroll?${page}`;

  const counts = new URLSearchParams(query);
  counts.set('count', '1');
  const facets: ScrollCall = {
    path: `${V3}/scroll?${counts}`,
    body: { ...where, facets: [...FACETS.map((f) => f.field), ...defs.filter((d) => !d.hidden).map((d) => propertyField(d.qualifiedName))] },
  };
  return { results, facets };
}

/** The part of the URL the facets depend on (not the page, not the order). */
export function facetKey(params: URLSearchParams): string {
  const rest = new URLSearchParams(params);
  rest.delete('scrollId');
  rest.delete('sort');
  return rest.toString();
}

/** The search URL with some parameters replaced (undefined or [] removes them); a new search starts at its first page. */
export function searchHash(current: URLSearchParams, changes: Record<string, string | string[] | undefined>): string {
  const next = new URLSearchParams(current);
  if (!('scrollId' in changes)) next.delete('scrollId');
  for (const [key, value] of Object.entries(changes)) {
    next.delete(key);
    for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) if (v !== '') next.append(key, v);
  }
  const text = next.toString();
  return `#/search${text ? `?${text}` : ''}`;
}
