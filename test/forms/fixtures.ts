import assert from 'node:assert/strict';
import { enc, V2, type TestApp } from '../helpers.js';
import { defineProperty } from '../structured/fixtures.js';

export const formUrn = (id: string) => `urn:li:form:${id}`;

export interface PromptSpec {
  id: string;
  property: string;
  required?: boolean;
  type?: string;
}

export function formInfo(name: string, prompts: PromptSpec[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    type: 'COMPLETION',
    prompts: prompts.map((p) => ({
      id: p.id,
      title: `Answer ${p.id}`,
      type: p.type ?? 'STRUCTURED_PROPERTY',
      structuredPropertyParams: { urn: p.property },
      required: p.required ?? true,
    })),
    ...extra,
  };
}

export function postFormInfo(t: TestApp, form: string, info: unknown) {
  return t.call({ method: 'POST', url: `${V2}/form/${enc(form)}/formInfo`, payload: info as object });
}

/** Writes a form and asserts it was accepted. */
export async function defineForm(t: TestApp, id: string, prompts: PromptSpec[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await postFormInfo(t, formUrn(id), formInfo(id, prompts, extra));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return formUrn(id);
}

/** Two string properties for datasets, a number one, and one for schema fields. */
export async function defineProperties(t: TestApp, prefix: string): Promise<{ owner: string; tier: string; fieldClass: string }> {
  return {
    owner: await defineProperty(t, `${prefix}.steward`),
    tier: await defineProperty(t, `${prefix}.tier`),
    fieldClass: await defineProperty(t, `${prefix}.fieldClass`, { entityTypes: ['urn:li:entityType:datahub.schemaField'] }),
  };
}

export async function readForms(t: TestApp, urn: string, type = 'dataset'): Promise<any> {
  const res = await t.call({ method: 'GET', url: `${V2}/${type}/${enc(urn)}/forms?systemMetadata=true` });
  return res.status === 404 ? undefined : res.body;
}

/** The forms aspect reduced to what the tests compare: form → completed prompt ids / open prompt ids. */
export async function formStates(t: TestApp, urn: string, type = 'dataset'): Promise<Record<string, string> | undefined> {
  const read = await readForms(t, urn, type);
  if (!read) return undefined;
  const out: Record<string, string> = {};
  const value = read.value;
  for (const [list, label] of [
    [value.incompleteForms, 'incomplete'],
    [value.completedForms, 'complete'],
  ] as const) {
    for (const f of list) {
      const done = (f.completedPrompts ?? []).map((p: { id: string }) => p.id).join(',');
      const open = (f.incompletePrompts ?? []).map((p: { id: string }) => p.id).join(',');
      out[f.urn] = `${label} done=[${done}] open=[${open}]`;
    }
  }
  for (const v of value.verifications ?? []) out[`verified ${v.form}`] = 'yes';
  return out;
}

export async function createDataset(t: TestApp, urn: string, aspects: Record<string, unknown> = {}): Promise<void> {
  const res = await t.call({ method: 'POST', url: `${V2}/dataset?async=false`, payload: [{ urn, aspects: { status: { value: { removed: false } }, ...Object.fromEntries(Object.entries(aspects).map(([k, v]) => [k, { value: v }])) } }] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

export function answer(t: TestApp, urn: string, property: string, value: string, type = 'dataset') {
  return t.call({
    method: 'PATCH',
    url: `${V2}/${type}/${enc(urn)}/structuredProperties`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify({ patch: [{ op: 'add', path: `/properties/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`, value: { propertyUrn: property, values: [{ string: value }] } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } }),
  });
}

export function unanswer(t: TestApp, urn: string, property: string, type = 'dataset') {
  return t.call({
    method: 'PATCH',
    url: `${V2}/${type}/${enc(urn)}/structuredProperties`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify({ patch: [{ op: 'remove', path: `/properties/${property.replace(/~/g, '~0').replace(/\//g, '~1')}` }], arrayPrimaryKeys: { properties: ['propertyUrn'] } }),
  });
}
