import assert from 'node:assert/strict';
import { enc, V2, type TestApp } from '../helpers.js';

export const testUrn = (id: string) => `urn:li:test:${id}`;

/** Writes a test; the definition is given as an object and stored as JSON text. */
export async function defineTest(
  t: TestApp,
  id: string,
  definition: unknown,
  extra: { status?: 'ACTIVE' | 'INACTIVE'; schedule?: 'DAILY' | 'NONE'; name?: string } = {},
): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: `${V2}/test/${enc(testUrn(id))}/testInfo`,
    payload: {
      name: extra.name ?? id,
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify(definition) },
      ...(extra.status ? { status: { mode: extra.status } } : {}),
      ...(extra.schedule ? { schedule: { interval: extra.schedule } } : {}),
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return testUrn(id);
}

export async function write(t: TestApp, type: string, urn: string, aspect: string, value: unknown): Promise<void> {
  const res = await t.call({ method: 'POST', url: `${V2}/${type}/${enc(urn)}/${aspect}`, payload: value as object });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

export function evaluate(t: TestApp, body: unknown, action = 'evaluate') {
  return t.call({ method: 'POST', url: `/gms/test?action=${action}`, payload: body as object });
}

export async function aspect(t: TestApp, type: string, urn: string, name: string): Promise<any> {
  const res = await t.call({ method: 'GET', url: `${V2}/${type}/${enc(urn)}/${name}` });
  return res.status === 404 ? undefined : res.body.value;
}

/** Test results without the volatile lastComputed and md5, for comparisons. */
export function brief(results: { passing: any[]; failing: any[] }) {
  return {
    passing: results.passing.map((r) => r.test),
    failing: results.failing.map((r) => r.test),
  };
}
