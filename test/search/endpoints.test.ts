import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { chartInfo, datasetUrn, globalTags, invalid, list, scroll, tag, write } from './fixtures.js';

/** The shapes of the search endpoints' answers: which aspects come back, v2 versus v3. */

const DS = datasetUrn('shape.ds');
const CHART = 'urn:li:chart:(looker,shape.chart)';
const PROPERTIES = { name: 'shape', description: 'the shape dataset' };
const TAGS = globalTags([tag('shape')]);

describe('search: answer shapes', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await write(t, 'dataset', DS, 'datasetProperties', PROPERTIES);
    await write(t, 'dataset', DS, 'globalTags', TAGS);
    await write(t, 'chart', CHART, 'chartInfo', chartInfo('shape chart'));
    await write(t, 'chart', CHART, 'globalTags', TAGS);
  });
  after(() => t.app.close());

  it('GET list answers {results: [{urn, aspects: {name: {value}}}], totalCount} with every aspect by default', async () => {
    const res = await list(t, 'dataset', { query: 'tags:shape' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['results', 'totalCount']);
    assert.equal(res.body.totalCount, 1);
    assert.equal(res.body.results.length, 1);
    assert.equal(res.body.results[0].urn, DS);
    assert.deepEqual(res.body.results[0].aspects.datasetProperties, { value: PROPERTIES });
    assert.deepEqual(res.body.results[0].aspects.globalTags, { value: TAGS });
    assert.deepEqual(res.body.results[0].aspects.datasetKey, { value: { platform: 'urn:li:dataPlatform:hive', name: 'shape.ds', origin: 'PROD' } });
  });

  it('GET list answers only the aspects asked for', async () => {
    const res = await list(t, 'dataset', { query: 'tags:shape', aspects: ['globalTags', 'datasetProperties'] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results, [{ urn: DS, aspects: { datasetProperties: { value: PROPERTIES }, globalTags: { value: TAGS } } }]);
  });

  it('v2 scroll answers URNs only when the body names no aspects', async () => {
    const res = await scroll(t, { filter: { and: [{ criteria: [{ field: 'tags', values: [tag('shape')] }] }] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      results: [
        { urn: CHART, aspects: {} },
        { urn: DS, aspects: {} },
      ],
      totalCount: 2,
      facets: [],
    });
  });

  it('v2 scroll answers every aspect for aspects: []', async () => {
    const res = await scroll(t, { entities: ['dataset'], aspects: [] }, { query: 'tags:shape' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results[0].aspects.datasetProperties, { value: PROPERTIES });
    assert.deepEqual(res.body.results[0].aspects.globalTags, { value: TAGS });
    assert.deepEqual(Object.keys(res.body.results[0].aspects).includes('datasetKey'), true);
  });

  it('v2 scroll answers the aspects named, per entity type', async () => {
    const res = await scroll(t, { aspects: ['globalTags', 'chartInfo'] }, { query: 'tags:shape' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results, [
      { urn: CHART, aspects: { chartInfo: { value: chartInfo('shape chart') }, globalTags: { value: TAGS } } },
      { urn: DS, aspects: { globalTags: { value: TAGS } } },
    ]);
  });

  it('v3 scroll answers {scrollId, entities: [{urn, <aspect>: {value}}], totalCount, facets}', async () => {
    const res = await scroll(t, { entities: ['dataset'], aspects: ['datasetProperties'] }, { query: 'tags:shape' }, 3);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      scrollId: null,
      entities: [{ urn: DS, datasetProperties: { value: PROPERTIES } }],
      totalCount: 1,
      facets: [{ field: 'entity', aggregations: { dataset: 1 } }],
    });
  });

  it('v3 scroll answers URNs only when the body names no aspects', async () => {
    const res = await scroll(t, { entities: ['chart', 'dataset'] }, { query: 'tags:shape', count: 1 }, 3);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.entities, [{ urn: CHART }]);
    assert.equal(typeof res.body.scrollId, 'string');
    assert.equal(res.body.totalCount, 2);
  });

  it('answers 400 for an unknown entity type in the body', async () => {
    for (const version of [2, 3] as const) {
      const res = await scroll(t, { entities: ['dataset', 'nonsense'] }, {}, version);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid('Unknown entity type nonsense'));
    }
  });

  it('answers 400 for a body that is not an object', async () => {
    const res = await scroll(t, ['dataset']);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, invalid('The body must be a JSON object: {entities?, aspects?, filter?, sortCriteria?, facets?}'));
  });
});
