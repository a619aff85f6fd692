import assert from 'node:assert/strict';
import { datasetUrn, enc, V2, type TestApp } from '../helpers.js';

/**
 * Helpers for the HTTP-level search tests: writing entities with the aspects that feed the index,
 * and searching through GET /openapi/v2/entity/{type} and POST /openapi/v{2,3}/entity/scroll.
 */

export { datasetUrn, enc, V2 };

export const SCROLL_V2 = '/openapi/v2/entity/scroll';
export const SCROLL_V3 = '/openapi/v3/entity/scroll';

export const tag = (name: string) => `urn:li:tag:${name}`;
export const user = (name: string) => `urn:li:corpuser:${name}`;
export const group = (name: string) => `urn:li:corpGroup:${name}`;
export const term = (name: string) => `urn:li:glossaryTerm:${name}`;
export const domain = (name: string) => `urn:li:domain:${name}`;
export const platform = (name: string) => `urn:li:dataPlatform:${name}`;

/** The body of a 400 from the search endpoints. */
export const invalid = (message: string) => ({ error: 'Validation Error', message });

/** What a dataset is made of, in the terms of the search fields. */
export interface DatasetSpec {
  name?: string;
  qualifiedName?: string;
  description?: string;
  editableDescription?: string;
  tags?: string[];
  owners?: string[];
  terms?: string[];
  domains?: string[];
  subtypes?: string[];
  fieldPaths?: string[];
  removed?: boolean;
  /** structuredProperties.properties as written. */
  properties?: Array<{ propertyUrn: string; values: unknown[] }>;
}

const audit = { time: 1581407189000, actor: 'urn:li:corpuser:jdoe' };

/** The aspects (name → value) a dataset spec turns into. */
export function datasetAspects(spec: DatasetSpec): Record<string, unknown> {
  const aspects: Record<string, unknown> = {};
  if (spec.name !== undefined || spec.qualifiedName !== undefined || spec.description !== undefined) {
    aspects.datasetProperties = {
      ...(spec.name !== undefined ? { name: spec.name } : {}),
      ...(spec.qualifiedName !== undefined ? { qualifiedName: spec.qualifiedName } : {}),
      ...(spec.description !== undefined ? { description: spec.description } : {}),
    };
  }
  if (spec.editableDescription !== undefined) aspects.editableDatasetProperties = { description: spec.editableDescription };
  if (spec.tags) aspects.globalTags = globalTags(spec.tags);
  if (spec.owners) aspects.ownership = ownership(spec.owners);
  if (spec.terms) aspects.glossaryTerms = glossaryTerms(spec.terms);
  if (spec.domains) aspects.domains = { domains: spec.domains };
  if (spec.subtypes) aspects.subTypes = { typeNames: spec.subtypes };
  if (spec.fieldPaths) aspects.schemaMetadata = schemaMetadata(spec.fieldPaths);
  if (spec.removed !== undefined) aspects.status = { removed: spec.removed };
  if (spec.properties) aspects.structuredProperties = { properties: spec.properties };
  return aspects;
}

export const globalTags = (tags: string[]) => ({ tags: tags.map((t) => ({ tag: t })) });
export const ownership = (owners: string[]) => ({ owners: owners.map((owner) => ({ owner, type: 'DATAOWNER' })) });
export const glossaryTerms = (terms: string[]) => ({ terms: terms.map((urn) => ({ urn })), auditStamp: audit });

export function schemaMetadata(fieldPaths: string[]) {
  return {
    schemaName: 'schema',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: fieldPaths.map((fieldPath) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } })),
  };
}

export const chartInfo = (title: string, description = '') => ({
  title,
  description,
  lastModified: { created: audit, lastModified: audit },
});

/** POSTs entities in one batch (DataHub's `[{urn, aspects: {name: {value}}}]`) and asserts it was accepted. */
export async function writeBatch(t: TestApp, type: string, entities: Array<{ urn: string; aspects: Record<string, unknown> }>): Promise<void> {
  const res = await t.call({
    method: 'POST',
    url: `${V2}/${type}`,
    payload: entities.map(({ urn, aspects }) => ({
      urn,
      aspects: Object.fromEntries(Object.entries(aspects).map(([name, value]) => [name, { value }])),
    })),
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
}

/** Writes datasets from specs, in one batch. */
export function writeDatasets(t: TestApp, specs: Array<[urn: string, spec: DatasetSpec]>): Promise<void> {
  return writeBatch(t, 'dataset', specs.map(([urn, spec]) => ({ urn, aspects: datasetAspects(spec) })));
}

/** Writes one aspect and asserts it was accepted. */
export async function write(t: TestApp, type: string, urn: string, aspect: string, value: unknown): Promise<void> {
  const res = await t.call({ method: 'POST', url: `${V2}/${type}/${enc(urn)}/${aspect}`, payload: value as object });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Patches one aspect (JSON Patch, with arrayPrimaryKeys when given) and asserts it was accepted. */
export async function patch(t: TestApp, type: string, urn: string, aspect: string, ops: unknown[], arrayPrimaryKeys?: Record<string, string[]>): Promise<void> {
  const res = await t.call({
    method: 'PATCH',
    url: `${V2}/${type}/${enc(urn)}/${aspect}`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify({ patch: ops, ...(arrayPrimaryKeys ? { arrayPrimaryKeys } : {}) }),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Deletes an aspect, or the whole entity when no aspect is named, and asserts it was accepted. */
export async function remove(t: TestApp, type: string, urn: string, aspect?: string): Promise<void> {
  const res = await t.call({ method: 'DELETE', url: `${V2}/${type}/${enc(urn)}${aspect ? `/${aspect}` : ''}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

export type Params = Record<string, string | number | boolean | Array<string | number | boolean> | undefined>;

export function queryString(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) search.append(key, String(v));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** GET /openapi/v2/entity/{type} with the given query parameters. */
export function list(t: TestApp, type: string, params: Params = {}) {
  return t.call({ method: 'GET', url: `${V2}/${type}${queryString(params)}` });
}

/** POST /openapi/v{2,3}/entity/scroll with the given body and query parameters. */
export function scroll(t: TestApp, body: unknown, params: Params = {}, version: 2 | 3 = 2) {
  return t.call({ method: 'POST', url: `${version === 2 ? SCROLL_V2 : SCROLL_V3}${queryString(params)}`, payload: body as object });
}

/** The URNs of the first page of a GET list (asserting 200). */
export async function listUrns(t: TestApp, type: string, params: Params = {}): Promise<string[]> {
  const res = await list(t, type, { count: 1000, ...params });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results.map((r: { urn: string }) => r.urn);
}

/** The URNs of datasets matching a query, in URN order unless other parameters say otherwise. */
export function search(t: TestApp, query: string, params: Params = {}, type = 'dataset'): Promise<string[]> {
  return listUrns(t, type, { query, sort: 'urn', ...params });
}

/** The URNs of the first page of a v2 scroll (asserting 200). */
export async function scrollUrns(t: TestApp, body: Record<string, unknown>, params: Params = {}): Promise<string[]> {
  const res = await scroll(t, body, { count: 1000, ...params });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results.map((r: { urn: string }) => r.urn);
}

/** The URNs of datasets matching a scroll filter (v2), in URN order. */
export function filtered(t: TestApp, filter: unknown, params: Params = {}, entities = ['dataset']): Promise<string[]> {
  return scrollUrns(t, { entities, filter }, params);
}

/** One criterion in DataHub's filter shape: `{and: [{criteria: [...]}]}`. */
export const where = (...criteria: Array<Record<string, unknown>>) => ({ and: [{ criteria }] });

/** Pages through a GET list until no scrollId comes back; every page's URNs, in order. */
export async function pagesOf(
  t: TestApp,
  type: string,
  params: Params,
  between?: (page: number) => Promise<void>,
  maxPages = 100,
): Promise<{ pages: string[][]; totals: number[] }> {
  const pages: string[][] = [];
  const totals: number[] = [];
  let scrollId: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await list(t, type, { ...params, scrollId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    pages.push(res.body.results.map((r: { urn: string }) => r.urn));
    totals.push(res.body.totalCount);
    scrollId = res.body.scrollId;
    if (!scrollId) return { pages, totals };
    if (between) await between(page);
  }
  assert.fail(`still a scrollId after ${maxPages} pages`);
}

/** Pages through a scroll (v2 or v3) until no scrollId comes back; every page's URNs. */
export async function scrollPagesOf(t: TestApp, body: unknown, params: Params, version: 2 | 3 = 2, maxPages = 100): Promise<string[][]> {
  const pages: string[][] = [];
  let scrollId: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await scroll(t, body, { ...params, scrollId }, version);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const items = version === 2 ? res.body.results : res.body.entities;
    pages.push(items.map((r: { urn: string }) => r.urn));
    scrollId = res.body.scrollId ?? undefined;
    if (!scrollId) return pages;
  }
  assert.fail(`still a scrollId after ${maxPages} pages`);
}

/** URNs that occur more than once in a list. */
export function duplicates(urns: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const urn of urns) (seen.has(urn) ? twice : seen).add(urn);
  return [...twice];
}

export const sorted = (urns: readonly string[]) => [...urns].sort();
