import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const PROPERTY = 'urn:li:structuredProperty:doubles.size';

describe('doubles are written as DataHub writes them', () => {
  let t: TestApp;
  const urn = datasetUrn('doubles.rendering');
  before(async () => {
    t = await testApp();
    const defined = await t.call({
      method: 'POST',
      url: `${V2}/structuredProperty/${enc(PROPERTY)}/propertyDefinition`,
      payload: { qualifiedName: 'doubles.size', valueType: 'urn:li:dataType:datahub.number', cardinality: 'MULTIPLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
    });
    assert.equal(defined.status, 200, defined.raw);
    const written = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(urn)}/structuredProperties`,
      payload: { properties: [{ propertyUrn: PROPERTY, values: [{ double: 60 }, { double: -3 }, { double: 2.5 }, { double: 1e21 }] }] },
    });
    assert.equal(written.status, 200, written.raw);
    const described = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/datasetProperties`, payload: { description: '{"double":30}' } });
    assert.equal(described.status, 200, described.raw);
  });
  after(() => t.app.close());

  it('answers a whole number in a double with .0, on v2 and v3, and leaves other numbers as they are', async () => {
    const expected = '{"propertyUrn":"urn:li:structuredProperty:doubles.size","values":[{"double":60.0},{"double":-3.0},{"double":2.5},{"double":1e+21}]}';
    const v2 = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/structuredProperties` });
    assert.equal(v2.raw, `{"value":{"properties":[${expected}]}}`);
    const v3 = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}/structuredProperties` });
    assert.ok(v3.raw.includes(expected), v3.raw);
  });

  it('leaves text that only looks like a double alone', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/datasetProperties` });
    assert.equal(res.raw, '{"value":{"description":"{\\"double\\":30}"}}');
  });

  it('answers the change log the same way', async () => {
    const res = await t.call({ method: 'GET', url: '/openapi/v2/events?after=0&limit=1000' });
    assert.ok(res.raw.includes('{"double":60.0},{"double":-3.0}'), 'the change log carries 60.0 and -3.0');
  });
});
