import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, V2, type TestApp } from '../helpers.js';

describe('GET /openapi/v2/entity/{type} (list)', () => {
  let t: TestApp;
  const tags = Array.from({ length: 25 }, (_, i) => `urn:li:tag:t${String(i).padStart(2, '0')}`);
  before(async () => {
    t = await testApp();
    const res = await t.call({
      method: 'POST',
      url: `${V2}/tag`,
      payload: tags.map((urn) => ({ urn, aspects: { tagProperties: { value: { name: urn.slice(11) } } } })),
    });
    assert.equal(res.status, 202);
  });
  after(() => t.app.close());

  const list = (query: string) => t.call({ method: 'GET', url: `${V2}/tag${query}` });

  it('lists 10 entities in URN order by default, with a scrollId for the next page', async () => {
    const res = await list('');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), tags.slice(0, 10));
    assert.deepEqual(res.body.results[0].aspects, {
      tagKey: { value: { name: 't00' } },
      tagProperties: { value: { name: 't00' } },
    });
    assert.equal(typeof res.body.scrollId, 'string');
  });

  it('pages through every entity exactly once and ends without a scrollId', async () => {
    const seen: string[] = [];
    let scrollId: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await list(`?count=7${scrollId ? `&scrollId=${scrollId}` : ''}`);
      seen.push(...res.body.results.map((r: { urn: string }) => r.urn));
      scrollId = res.body.scrollId;
      if (!scrollId) break;
    }
    assert.deepEqual(seen, tags);
    assert.equal(scrollId, undefined);
  });

  it('returns only the aspects asked for', async () => {
    const res = await list('?count=1&aspects=tagProperties');
    assert.deepEqual(res.body.results[0].aspects, { tagProperties: { value: { name: 't00' } } });
  });

  it('adds systemMetadata with systemMetadata=true', async () => {
    const res = await list('?count=1&aspects=tagProperties&systemMetadata=true');
    assert.equal(res.body.results[0].aspects.tagProperties.systemMetadata.version, '1');
  });

  it('caps count at 1000 silently', async () => {
    const res = await list('?count=99999');
    assert.equal(res.status, 200);
    assert.equal(res.body.results.length, 25);
  });

  it('answers 400 for a count below 1', async () => {
    const res = await list('?count=0');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'count must be a positive integer, got 0' });
  });

  it('answers 400 for a scrollId it did not issue', async () => {
    const res = await list('?scrollId=garbage');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Invalid scrollId: garbage' });
  });

  it('answers 400 for an unknown entity type', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/nonsense` });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown entity type nonsense' });
  });

  it('accepts the entity type in any case', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/TAG?count=1` });
    assert.equal(res.status, 200);
    assert.equal(res.body.results[0].urn, tags[0]);
  });

});
