import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, list, scroll, write } from './fixtures.js';

/** U+0000 is valid in JSON strings; PostgreSQL text cannot hold it, and the catalog must not care. */

const DS = datasetUrn('nul.text');
const PROPERTIES = { name: 'nul\u0000name', description: 'a description with \u0000 inside', customProperties: { 'k\u0000': 'v\u0000' } };

describe('text holding U+0000, on either store', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await write(t, 'dataset', DS, 'datasetProperties', PROPERTIES);
  });
  after(() => t.app.close());

  it('is stored and read back exactly', async () => {
    const res = await t.call({ method: 'GET', url: `/openapi/v2/entity/dataset/${encodeURIComponent(DS)}/datasetProperties` });
    assert.deepEqual(res.body, { value: PROPERTIES });
  });

  it('is found by a field query, a filter and a free word', async () => {
    const byQuery = await list(t, 'dataset', { query: 'name:"nul\u0000name"' });
    assert.deepEqual([byQuery.status, byQuery.body.results.map((r: { urn: string }) => r.urn)], [200, [DS]]);
    const byFilter = await scroll(t, { entities: ['dataset'], filter: { and: [{ criteria: [{ field: 'name', values: ['nul\u0000name'] }] }] } });
    assert.deepEqual([byFilter.status, byFilter.body.results.map((r: { urn: string }) => r.urn)], [200, [DS]]);
    for (const query of ['inside', 'nul\u0000name', 'description:"with \u0000 inside"']) {
      const byWords = await list(t, 'dataset', { query });
      assert.deepEqual([byWords.status, byWords.body.results?.map((r: { urn: string }) => r.urn)], [200, [DS]], JSON.stringify(query));
    }
  });

  it('in a token id to revoke is a 404, not a store error', async () => {
    const res = await t.call({ method: 'DELETE', url: '/openapi/v2/auth/tokens/a%00b' });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not Found', message: 'No live token with id a\u0000b' });
  });
});
