import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';

/** GET /openapi/v2/entity-types/{type}: the aspects a type may hold, as the registry has them. */
describe('GET /openapi/v2/entity-types/{type}', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  it('answers the type, its key aspect and its aspects, sorted; in any case', async () => {
    const res = await t.call({ method: 'GET', url: '/openapi/v2/entity-types/Dataset' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'dataset');
    assert.equal(res.body.keyAspect, 'datasetKey');
    assert.deepEqual(res.body.aspects, [...res.body.aspects].sort());
    for (const aspect of ['datasetKey', 'domains', 'glossaryTerms', 'globalTags', 'ownership', 'editableDatasetProperties', 'dataPlatformInstance']) assert.ok(res.body.aspects.includes(aspect), aspect);
  });

  it('a user has no domain and no glossary terms; a domain has no tags and no platform', async () => {
    const user = (await t.call({ method: 'GET', url: '/openapi/v2/entity-types/corpuser' })).body.aspects as string[];
    assert.equal(user.includes('domains'), false);
    assert.equal(user.includes('glossaryTerms'), false);
    const domain = (await t.call({ method: 'GET', url: '/openapi/v2/entity-types/domain' })).body.aspects as string[];
    assert.equal(domain.includes('globalTags'), false);
    assert.equal(domain.includes('dataPlatformInstance'), false);
    assert.ok(domain.includes('domainProperties'));
  });

  it('an unknown type is a 400 saying so', async () => {
    const res = await t.call({ method: 'GET', url: '/openapi/v2/entity-types/nope' });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Unknown entity type nope');
  });
});
