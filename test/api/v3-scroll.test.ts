import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { V3 } from './v3-fixtures.js';

/** GET /{entityName} and POST /{entityName}/scroll: v3 search of one entity type. */

const names = ['scroll.a', 'scroll.b', 'scroll.c'];
const urns = names.map((n) => datasetUrn(n));
const CHART = 'urn:li:chart:(looker,scroll.chart)';

describe('v3 scroll of one entity type', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset?async=false`,
      payload: [
        ...urns.map((urn, i) => ({ urn, datasetProperties: { value: { name: names[i], qualifiedName: `entities.${names[i]}`, customProperties: {}, tags: [] } }, status: { value: { removed: false } } })),
        { urn: CHART, status: { value: { removed: false } } },
      ],
    });
    assert.equal(res.status, 200, res.raw);
  });
  after(() => t.app.close());

  it('GET /{entityName} answers {scrollId, entities, totalCount, facets: []} with the aspects asked for', async () => {
    const res = await t.call({ method: 'GET', url: `${V3}/dataset?aspects=datasetProperties&aspects=status&count=1&query=qualifiedName:entities.scroll*&sortCriteria=urn&sortOrder=DESCENDING&pitKeepAlive=1m&skipCache=true` });
    assert.equal(res.status, 200, res.raw);
    assert.equal(typeof res.body.scrollId, 'string');
    assert.deepEqual({ ...res.body, scrollId: undefined }, {
      scrollId: undefined,
      entities: [{ urn: urns[2], datasetProperties: { value: { name: 'scroll.c', qualifiedName: 'entities.scroll.c', customProperties: {}, tags: [] } }, status: { value: { removed: false } } }],
      totalCount: 3,
      facets: [],
    });
  });

  it('GET /{entityName} pages with scrollId to the end (scrollId null)', async () => {
    const seen: string[] = [];
    let scrollId: string | null = null;
    do {
      const res: { status: number; body: { scrollId: string | null; entities: Array<{ urn: string }> } } = await t.call({
        method: 'GET',
        url: `${V3}/dataset?count=2&aspectNames=status${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`,
      });
      assert.equal(res.status, 200);
      seen.push(...res.body.entities.map((e) => e.urn));
      scrollId = res.body.scrollId;
    } while (scrollId !== null);
    assert.deepEqual(seen, urns);
  });

  it('GET /{entityName} answers every aspect when none is asked for, with systemMetadata and auditStamp when asked', async () => {
    const res = await t.call({ method: 'GET', url: `${V3}/chart?systemMetadata=true` });
    assert.equal(res.status, 200);
    assert.equal(res.body.entities.length, 1);
    const entity = res.body.entities[0];
    assert.deepEqual(Object.keys(entity).sort(), ['browsePathsV2', 'chartKey', 'status', 'urn']);
    assert.deepEqual(entity.status.value, { removed: false });
    assert.deepEqual(entity.status.auditStamp, entity.status.systemMetadata.aspectModified);
  });

  it('GET /{entityName} answers 400 for an unknown entity type', async () => {
    const res = await t.call({ method: 'GET', url: `${V3}/nonsense` });
    assert.deepEqual([res.status, res.body], [400, { error: 'Validation Error', message: 'Unknown entity type nonsense' }]);
  });

  it('POST /{entityName}/scroll is POST /scroll with entities=[entityName]', async () => {
    const body = { aspects: ['status'], entities: ['chart'] };
    const alias = await t.call({ method: 'POST', url: `${V3}/dataset/scroll?count=10`, payload: body });
    assert.equal(alias.status, 200);
    assert.deepEqual(alias.body, {
      scrollId: null,
      entities: urns.map((urn) => ({ urn, status: { value: { removed: false } } })),
      totalCount: 3,
      facets: [{ field: 'entity', aggregations: { dataset: 3 } }],
    });
    const plain = await t.call({ method: 'POST', url: `${V3}/scroll?count=10`, payload: { ...body, entities: ['dataset'] } });
    assert.deepEqual(plain.body, alias.body);
    const urnsOnly = await t.call({ method: 'POST', url: `${V3}/chart/scroll`, payload: {} });
    assert.deepEqual(urnsOnly.body, { scrollId: null, entities: [{ urn: CHART }], totalCount: 1, facets: [{ field: 'entity', aggregations: { chart: 1 } }] });
    const bad = await t.call({ method: 'POST', url: `${V3}/nonsense/scroll`, payload: {} });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'Validation Error', message: 'Unknown entity type nonsense' }]);
  });

  it('POST /scroll adds auditStamp beside systemMetadata when asked for', async () => {
    const res = await t.call({ method: 'POST', url: `${V3}/scroll?systemMetadata=true`, payload: { entities: ['chart'], aspects: ['status'] } });
    const status = res.body.entities[0].status;
    assert.deepEqual(Object.keys(status).sort(), ['auditStamp', 'systemMetadata', 'value']);
  });
});
