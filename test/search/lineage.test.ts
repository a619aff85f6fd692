import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp, upstreams } from '../helpers.js';
import { datasetUrn, filtered, invalid, list, scroll, scrollPagesOf, scrollUrns, search, sorted, where, write } from './fixtures.js';

const stamp = { time: 0, actor: 'urn:li:corpuser:etl' };

/**
 * The lineage filters `upstreams` and `downstreams` (both stores), read from the edges table: raw
 * → clean → mart (raw is its upstream too) → report → a chart; a job reading mart and writing
 * export; orphan, built from a soft-deleted dataset; lone, without lineage.
 */
describe('search: filtering on lineage neighbours', () => {
  let t: TestApp;
  const raw = datasetUrn('lin.raw');
  const clean = datasetUrn('lin.clean');
  const mart = datasetUrn('lin.mart', 'snowflake');
  const report = datasetUrn('lin.report', 'snowflake');
  const exported = datasetUrn('lin.export', 's3');
  const gone = datasetUrn('lin.gone');
  const orphan = datasetUrn('lin.orphan');
  const lone = datasetUrn('lin.lone');
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,lin_export,prod),copy)';
  const chart = 'urn:li:chart:(looker,lin.revenue)';
  /** Every visible dataset, in URN order. */
  const datasets = sorted([raw, clean, mart, report, exported, orphan, lone]);
  const except = (...urns: string[]) => datasets.filter((u) => !urns.includes(u));

  const upstreamsOf = (values: string[], extra: Record<string, unknown> = {}) => where({ field: 'upstreams', condition: 'EQUAL', values, ...extra });

  before(async () => {
    t = await testApp();
    await write(t, 'dataset', raw, 'datasetProperties', { name: 'raw' });
    await write(t, 'dataset', clean, 'upstreamLineage', upstreams(raw));
    await write(t, 'dataset', clean, 'datasetProperties', { name: 'clean' });
    await write(t, 'dataset', mart, 'upstreamLineage', upstreams(clean, raw));
    await write(t, 'dataset', report, 'upstreamLineage', upstreams(mart));
    await write(t, 'dataJob', job, 'dataJobInputOutput', { inputDatasets: [mart], outputDatasets: [exported] });
    await write(t, 'dataset', exported, 'datasetProperties', { name: 'export' });
    await write(t, 'chart', chart, 'chartInfo', { title: 'revenue', description: '', inputEdges: [{ destinationUrn: report }], lastModified: { created: stamp, lastModified: stamp } });
    await write(t, 'dataset', gone, 'status', { removed: true });
    await write(t, 'dataset', orphan, 'upstreamLineage', upstreams(gone));
    await write(t, 'dataset', lone, 'datasetProperties', { name: 'lone' });
  });
  after(() => t.app.close());

  it('EQUAL: datasets with a direct upstream among the values', async () => {
    assert.deepEqual(await filtered(t, upstreamsOf([raw])), sorted([clean, mart]));
    assert.deepEqual(await filtered(t, upstreamsOf([clean, mart])), sorted([mart, report]));
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'IN', values: [mart] })), [report]);
    assert.deepEqual(await filtered(t, upstreamsOf([lone])), []);
  });

  it('counts every lineage edge, not only upstreamLineage: a job that produced a dataset is its upstream', async () => {
    assert.deepEqual(await filtered(t, upstreamsOf([job])), [exported]);
    assert.deepEqual(await filtered(t, upstreamsOf([mart]), {}, ['dataset', 'dataJob']), sorted([report, job]));
    assert.deepEqual(await filtered(t, upstreamsOf([report]), {}, ['chart']), [chart]);
    assert.deepEqual(await scrollUrns(t, { filter: upstreamsOf([mart, report]) }), sorted([report, job, chart]), 'every entity type');
  });

  it('is direct: one edge away, so a dataset made by a job is not found by the job\'s input', async () => {
    assert.deepEqual(await filtered(t, upstreamsOf([mart]), {}, ['dataset']), [report]);
  });

  it('downstreams: entities with a direct downstream among the values', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'downstreams', values: [mart] })), sorted([raw, clean]));
    assert.deepEqual(await filtered(t, where({ field: 'downstreams', values: [exported] }), {}, ['dataJob']), [job]);
    assert.deepEqual(await filtered(t, where({ field: 'downstreams', values: [job] })), [mart]);
  });

  it('negated: every entity without such an upstream', async () => {
    assert.deepEqual(await filtered(t, upstreamsOf([raw], { negated: true })), except(clean, mart));
  });

  it('EXISTS: entities with any upstream, or (negated) none', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EXISTS' })), sorted([clean, mart, report, exported]));
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EXISTS', negated: true })), sorted([raw, orphan, lone]));
    assert.deepEqual(await filtered(t, where({ field: 'downstreams', condition: 'EXISTS' })), sorted([raw, clean, mart, report]));
  });

  it('compares URN text with STARTS_WITH, ENDS_WITH and CONTAIN', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'STARTS_WITH', values: ['urn:li:dataJob:'] })), [exported]);
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'ENDS_WITH', values: ['lin.clean,PROD)'] })), [mart]);
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'CONTAIN', values: ['snowflake'] })), [report]);
  });

  it('leaves soft-deleted upstreams out, unless soft-deleted entities are included', async () => {
    assert.deepEqual(await filtered(t, upstreamsOf([gone])), []);
    assert.deepEqual(await filtered(t, upstreamsOf([gone]), { includeSoftDelete: true }), [orphan]);
    assert.deepEqual(await filtered(t, where({ field: 'upstreams', condition: 'EXISTS' }), { includeSoftDelete: true }), sorted([clean, mart, report, exported, orphan]));
  });

  it('combines with other criteria and groups', async () => {
    const criteria = [{ field: 'upstreams', values: [raw] }, { field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }];
    assert.deepEqual(await filtered(t, where(...criteria)), [mart]);
    const groups = { or: [{ and: [{ field: 'upstreams', values: [mart] }] }, { and: [{ field: 'name', values: ['lone'] }] }] };
    assert.deepEqual(await filtered(t, groups), sorted([report, lone]));
  });

  it('works in the query language: a quoted URN, _exists_, NOT', async () => {
    assert.deepEqual(await search(t, `upstreams:${JSON.stringify(raw)}`), sorted([clean, mart]));
    assert.deepEqual(await search(t, `upstreams:${JSON.stringify(raw)} AND name:clean`), [clean]);
    assert.deepEqual(await search(t, '_exists_:upstreams'), sorted([clean, mart, report, exported]));
    assert.deepEqual(await search(t, `NOT downstreams:${JSON.stringify(report)}`), except(mart));
  });

  it('counts and pages exactly, on v2 and v3', async () => {
    const res = await scroll(t, { entities: ['dataset'], filter: where({ field: 'upstreams', condition: 'EXISTS' }) }, { count: 3 });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.totalCount, 4);
    const pages = await scrollPagesOf(t, { entities: ['dataset'], filter: where({ field: 'upstreams', condition: 'EXISTS' }) }, { count: 3 }, 3);
    assert.deepEqual(pages, [sorted([clean, mart, report, exported]).slice(0, 3), sorted([clean, mart, report, exported]).slice(3)]);
  });

  it('keeps facets on upstreams from the index of upstreamLineage (DataHub\'s field): a job is not counted there', async () => {
    const res = await scroll(t, { entities: ['dataset'], filter: where({ field: 'upstreams', condition: 'EXISTS' }), facets: ['upstreams'] });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body.facets, [{ field: 'upstreams', aggregations: { [raw]: 2, [clean]: 1, [mart]: 1 } }]);
  });

  it('answers 400 for a facet on downstreams (no index field holds it)', async () => {
    const res = await scroll(t, { entities: ['dataset'], facets: ['downstreams'] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, invalid('Unknown search field downstreams'));
  });

  it('answers from the lineage as written: a rewrite moves the match at once', async () => {
    await write(t, 'dataset', clean, 'upstreamLineage', upstreams(lone));
    assert.deepEqual(await filtered(t, upstreamsOf([raw])), [mart]);
    assert.deepEqual(await filtered(t, upstreamsOf([lone])), [clean]);
    await write(t, 'dataset', clean, 'upstreamLineage', upstreams(raw));
    assert.deepEqual(await filtered(t, upstreamsOf([raw])), sorted([clean, mart]));
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['a value that is not a URN', { field: 'upstreams', condition: 'EQUAL', values: ['orders'] }, 'upstreams: expected entity URNs, got "orders"'],
    ['a malformed URN among good ones', { field: 'downstreams', condition: 'IN', values: [raw, 'urn:li:dataset:('] }, 'downstreams: expected entity URNs, got "urn:li:dataset:("'],
    ['a URN holding a NUL', { field: 'upstreams', values: ['urn:li:dataset:a\u0000b'] }, 'upstreams: expected entity URNs, got "urn:li:dataset:a\\u0000b"'],
    ['a range', { field: 'upstreams', condition: 'GREATER_THAN', values: [raw] }, 'upstreams: ranges are not supported'],
    ['no value', { field: 'upstreams', condition: 'EQUAL', values: [] }, 'EQUAL needs a value'],
  ];
  for (const [why, criterion, message] of refused) {
    it(`answers 400 for ${why}`, async () => {
      const res = await scroll(t, { entities: ['dataset'], filter: where(criterion) });
      assert.equal(res.status, 400);
      const at = why === 'no value' ? 'filter.and[0].criteria[0].values: ' : 'filter.and[0].criteria[0]: ';
      assert.deepEqual(res.body, invalid(`${at}${message}`));
    });
  }

  it('answers 400 for a short form in the query language, pointing at the column', async () => {
    const res = await list(t, 'dataset', { query: 'name:raw AND upstreams:orders' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, invalid('Invalid query at column 14: upstreams: expected entity URNs, got "orders"'));
  });

  it('answers 400 for a control character in text to compare (no URN holds one)', async () => {
    for (const [condition, value] of [['STARTS_WITH', 'urn:li:\u0000'], ['CONTAIN', '\u0000'], ['ENDS_WITH', 'a\nb']]) {
      const res = await scroll(t, { entities: ['dataset'], filter: where({ field: 'upstreams', condition, values: [value] }) });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(`filter.and[0].criteria[0]: upstreams: URNs hold no control characters, got ${JSON.stringify(value)}`));
    }
  });
});
