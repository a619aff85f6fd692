import assert from 'node:assert/strict';
import { datasetUrn, enc, V2, type TestApp } from '../helpers.js';

export const propertyUrn = (qualifiedName: string) => `urn:li:structuredProperty:${qualifiedName}`;

export function definition(qualifiedName: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    qualifiedName,
    displayName: qualifiedName,
    valueType: 'urn:li:dataType:datahub.string',
    cardinality: 'SINGLE',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    ...overrides,
  };
}

/** Writes a definition and asserts it was accepted. */
export async function defineProperty(t: TestApp, qualifiedName: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await postDefinition(t, qualifiedName, definition(qualifiedName, overrides));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return propertyUrn(qualifiedName);
}

export function postDefinition(t: TestApp, qualifiedName: string, body: unknown) {
  return t.call({
    method: 'POST',
    url: `${V2}/structuredProperty/${enc(propertyUrn(qualifiedName))}/propertyDefinition`,
    payload: body as object,
  });
}

export function setStatus(t: TestApp, propertyUrnText: string, removed: boolean) {
  return t.call({
    method: 'POST',
    url: `${V2}/structuredProperty/${enc(propertyUrnText)}/status?systemMetadata=false`,
    payload: { removed },
  });
}

export function postValues(t: TestApp, entityUrn: string, properties: unknown[], type = 'dataset') {
  return t.call({ method: 'POST', url: `${V2}/${type}/${enc(entityUrn)}/structuredProperties`, payload: { properties } });
}

export function patchValues(t: TestApp, entityUrn: string, patch: unknown[], type = 'dataset') {
  return t.call({
    method: 'PATCH',
    url: `${V2}/${type}/${enc(entityUrn)}/structuredProperties`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify({ patch, arrayPrimaryKeys: { properties: ['propertyUrn'] } }),
  });
}

export async function readValues(t: TestApp, entityUrn: string, type = 'dataset'): Promise<unknown> {
  const res = await t.call({ method: 'GET', url: `${V2}/${type}/${enc(entityUrn)}/structuredProperties` });
  return res.status === 404 ? undefined : res.body.value.properties;
}

export { datasetUrn };
