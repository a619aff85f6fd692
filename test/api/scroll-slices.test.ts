import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, V2, type TestApp } from '../helpers.js';
import { V3 } from './v3-fixtures.js';

/**
 * sliceId/sliceMax, as DataHub's scroll routes take them (an Elasticsearch sliced scroll): slices
 * partition the result, so clients that scroll every slice in parallel see each entity once.
 * urnbase's slice 0 holds every entity and the others none. Both parameters are needed (one alone
 * is ignored, as DataHub ignores it); they are checked as Elasticsearch checks them.
 */
const names = ['slices.a', 'slices.b', 'slices.c'];
const urns = names.map((n) => datasetUrn(n));

describe('sliced scrolls (sliceId, sliceMax)', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset?async=false`,
      payload: urns.map((urn, i) => ({ urn, datasetProperties: { value: { name: names[i], customProperties: {}, tags: [] } } })),
    });
    assert.equal(res.status, 200, res.raw);
  });
  after(() => t.app.close());

  const scroll = (query: string, body: object = { entities: ['dataset'] }) => t.call({ method: 'POST', url: `${V3}/scroll?${query}`, payload: body });

  it('POST /scroll: slice 0 of 2 pages through every entity; slice 1 is empty', async () => {
    const seen: string[] = [];
    let scrollId: string | null = null;
    do {
      const res: { status: number; body: { scrollId: string | null; entities: Array<{ urn: string }>; totalCount: number } } = await scroll(
        `sliceId=0&sliceMax=2&count=2${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`,
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.totalCount, 3);
      seen.push(...res.body.entities.map((e) => e.urn));
      scrollId = res.body.scrollId;
    } while (scrollId !== null);
    assert.deepEqual(seen, urns);

    const other = await scroll('sliceId=1&sliceMax=2&count=2');
    assert.equal(other.status, 200);
    assert.deepEqual(other.body, { scrollId: null, entities: [], totalCount: 0, facets: [{ field: 'entity', aggregations: {} }] });
  });

  it('POST /{entityName}/scroll, GET /{entityName} (v3 and v2) and the v2 scroll take them too', async () => {
    const empty = { scrollId: null, entities: [], totalCount: 0, facets: [] };
    const typed = await t.call({ method: 'POST', url: `${V3}/dataset/scroll?sliceId=2&sliceMax=3`, payload: {} });
    assert.equal(typed.status, 200);
    assert.deepEqual(typed.body, { ...empty, facets: [{ field: 'entity', aggregations: {} }] });
    const list = await t.call({ method: 'GET', url: `${V3}/dataset?sliceId=1&sliceMax=3` });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, empty);
    const first = await t.call({ method: 'GET', url: `${V3}/dataset?sliceId=0&sliceMax=3&aspects=datasetKey` });
    assert.deepEqual(first.body.entities.map((e: { urn: string }) => e.urn), urns);
    const v2List = await t.call({ method: 'GET', url: `${V2}/dataset?sliceId=1&sliceMax=2` });
    assert.equal(v2List.status, 200);
    assert.deepEqual(v2List.body, { results: [], totalCount: 0 });
    const v2Scroll = await t.call({ method: 'POST', url: `${V2}/scroll?sliceId=0&sliceMax=2`, payload: { entities: ['dataset'] } });
    assert.equal(v2Scroll.status, 200);
    assert.equal(v2Scroll.body.totalCount, 3);
  });

  it('one of the two alone is ignored, as DataHub ignores it', async () => {
    for (const query of ['sliceId=1', 'sliceMax=2']) {
      const res = await scroll(query);
      assert.equal(res.status, 200, query);
      assert.equal(res.body.totalCount, 3, query);
    }
  });

  it('refuses slices Elasticsearch would refuse: sliceMax below 2, sliceId outside 0..sliceMax-1, not integers', async () => {
    const cases: Array<[string, string]> = [
      ['sliceId=0&sliceMax=1', 'sliceMax must be greater than 1, got 1'],
      ['sliceId=2&sliceMax=2', 'sliceId must be at least 0 and less than sliceMax (2), got 2'],
      ['sliceId=-1&sliceMax=2', 'sliceId must be at least 0 and less than sliceMax (2), got -1'],
    ];
    for (const [query, message] of cases) {
      const res = await scroll(query);
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, { error: 'Validation Error', message }, query);
    }
    const notNumber = await scroll('sliceId=x&sliceMax=2');
    assert.equal(notNumber.status, 400);
    assert.deepEqual(notNumber.body, { error: 'Validation Error', message: 'querystring/sliceId must be integer' });
  });
});
