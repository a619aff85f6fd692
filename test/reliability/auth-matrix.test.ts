import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { matrixRoutes } from './auth-matrix.js';

describe('the security matrix', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  it('covers every operation the OpenAPI document declares', async () => {
    const doc = (await t.call({ method: 'GET', url: '/openapi/v3/api-docs' })).body as { paths: Record<string, Record<string, unknown>> };
    const requests = matrixRoutes(() => 'victim').map((r) => r.request());
    const missing: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(operations).filter((m) => ['get', 'head', 'post', 'put', 'patch', 'delete'].includes(m))) {
        const covered = requests.some((r) => r.method.toLowerCase() === method && pattern.test(r.path.split('?')[0]));
        if (!covered) missing.push(`${method.toUpperCase()} ${template}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
