import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphEdges } from '../../src/graph/edges.js';
import { Lineage } from '../../src/graph/lineage.js';
import { datasetUrn, enc, testApp, type TestApp, upstreams } from '../helpers.js';

const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;

/**
 * Multi-hop lineage (both stores): a chain raw → clean → (snowflake) mart → report, a job reading
 * the mart and writing an export, a two-dataset cycle, and column lineage along the chain.
 */
describe('lineage: multi-hop walks with degrees, paths, filters and budgets', () => {
  let t: TestApp;
  const raw = datasetUrn('lin.raw');
  const clean = datasetUrn('lin.clean');
  const mart = datasetUrn('lin.mart', 'snowflake');
  const report = datasetUrn('lin.report', 'snowflake');
  const exported = datasetUrn('lin.export', 's3');
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,lin_export,prod),copy)';
  const ping = datasetUrn('lin.ping');
  const pong = datasetUrn('lin.pong');

  const write = (urn: string, aspect: string, value: object, type = 'dataset') =>
    t.call({ method: 'POST', url: `/openapi/v2/entity/${type}/${enc(urn)}/${aspect}`, payload: value });
  const walk = (urn: string, query: string, type = 'dataset') => t.call({ method: 'GET', url: `/openapi/v3/lineage/${type}/${enc(urn)}?${query}` });
  /** `degree urn` of each result, in the answer's order. */
  const reached = async (urn: string, query: string, type = 'dataset') => {
    const res = await walk(urn, query, type);
    assert.equal(res.status, 200, res.raw);
    return (res.body.results as Array<{ entity: string; degree: number }>).map((r) => `${r.degree} ${r.entity}`);
  };
  const ok = async (res: Promise<{ status: number; raw: string }>) => assert.equal((await res).status, 200, (await res).raw);

  before(async () => {
    t = await testApp();
    await ok(write(clean, 'upstreamLineage', upstreams(raw)));
    await ok(write(mart, 'upstreamLineage', { ...upstreams(clean), fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [field(clean, 'id')], downstreams: [field(mart, 'id')], transformOperation: 'COPY', confidenceScore: 1 }] }));
    await ok(write(report, 'upstreamLineage', { ...upstreams(mart), fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [field(mart, 'id')], downstreams: [field(report, 'order_id')] }] }));
    await ok(write(job, 'dataJobInputOutput', { inputDatasets: [mart], outputDatasets: [exported] }, 'dataJob'));
    await ok(write(ping, 'upstreamLineage', upstreams(pong)));
    await ok(write(pong, 'upstreamLineage', upstreams(ping)));
  });
  after(() => t.app.close());

  it('walks downstream hop by hop, each entity once at its least degree, jobs on the path (dataset → job → dataset)', async () => {
    const res = await walk(raw, 'direction=DOWNSTREAM');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, {
      urn: raw,
      direction: 'DOWNSTREAM',
      start: 0,
      count: 5,
      total: 5,
      partial: false,
      degrees: { '1': 1, '2': 1, '3+': 3 },
      results: [
        { entity: clean, entityType: 'dataset', type: 'DownstreamOf', degree: 1, paths: [[raw, clean]] },
        { entity: mart, entityType: 'dataset', type: 'DownstreamOf', degree: 2, paths: [[raw, clean, mart]] },
        { entity: job, entityType: 'dataJob', type: 'Consumes', degree: 3, paths: [[raw, clean, mart, job]] },
        { entity: report, entityType: 'dataset', type: 'DownstreamOf', degree: 3, paths: [[raw, clean, mart, report]] },
        { entity: exported, entityType: 'dataset', type: 'Produces', degree: 4, paths: [[raw, clean, mart, job, exported]] },
      ],
    });
  });

  it('walks upstream the other way: through the job that produced a dataset, to its inputs', async () => {
    assert.deepEqual(await reached(exported, 'direction=UPSTREAM'), [`1 ${job}`, `2 ${mart}`, `3 ${clean}`, `4 ${raw}`]);
    assert.deepEqual(await reached(job, 'direction=upstream', 'dataJob'), [`1 ${mart}`, `2 ${clean}`, `3 ${raw}`]);
    assert.deepEqual(await reached(job, 'direction=DOWNSTREAM', 'dataJob'), [`1 ${exported}`]);
  });

  it('stops at maxHops', async () => {
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&maxHops=2'), [`1 ${clean}`, `2 ${mart}`]);
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&maxHops=1'), [`1 ${clean}`]);
  });

  it('filters the results by entity type, platform and degree (1, 2, 3+), and counts degrees before the degree filter', async () => {
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&types=dataJob'), [`3 ${job}`]);
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&platforms=snowflake'), [`2 ${mart}`, `3 ${report}`]);
    // A job is on its flow's orchestrator's platform.
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&platforms=urn:li:dataPlatform:airflow,s3'), [`3 ${job}`, `4 ${exported}`]);
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM&degree=3%2B'), [`3 ${job}`, `3 ${report}`, `4 ${exported}`]);
    const res = await walk(raw, 'direction=DOWNSTREAM&degree=1&degree=2&types=dataset');
    assert.deepEqual([res.body.total, res.body.degrees], [2, { '1': 1, '2': 1, '3+': 2 }]);
  });

  it('pages by start and count, total counting every result', async () => {
    const res = await walk(raw, 'direction=DOWNSTREAM&start=3&count=1');
    assert.deepEqual([res.body.start, res.body.count, res.body.total, res.body.results.map((r: { entity: string }) => r.entity)], [3, 1, 5, [report]]);
  });

  it('ends on cycles: each entity is reached once', async () => {
    assert.deepEqual(await reached(ping, 'direction=DOWNSTREAM'), [`1 ${pong}`]);
    assert.deepEqual(await reached(pong, 'direction=UPSTREAM'), [`1 ${ping}`]);
  });

  it('walks column lineage through schemaFields', async () => {
    const res = await walk(field(clean, 'id'), 'direction=DOWNSTREAM', 'schemaField');
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(
      res.body.results.map((r: { entity: string; degree: number; paths: string[][] }) => [r.degree, r.entity, r.paths]),
      [
        [1, field(mart, 'id'), [[field(clean, 'id'), field(mart, 'id')]]],
        [2, field(report, 'order_id'), [[field(clean, 'id'), field(mart, 'id'), field(report, 'order_id')]]],
      ],
    );
    assert.deepEqual(await reached(field(report, 'order_id'), 'direction=UPSTREAM', 'schemaField'), [`1 ${field(mart, 'id')}`, `2 ${field(clean, 'id')}`]);
  });

  it('leaves soft-deleted entities (and what lies beyond them) out unless includeSoftDelete, and follows edges as the aspects change', async () => {
    await ok(write(mart, 'status', { removed: true }));
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM'), [`1 ${clean}`]);
    assert.equal((await reached(raw, 'direction=DOWNSTREAM&includeSoftDelete=true')).length, 5);
    // At the first hop too (the root's step checks in its own statement), either way.
    assert.deepEqual(await reached(clean, 'direction=DOWNSTREAM'), []);
    assert.deepEqual(await reached(report, 'direction=UPSTREAM'), []);
    assert.deepEqual(await reached(report, 'direction=UPSTREAM&includeSoftDelete=true&maxHops=1'), [`1 ${mart}`]);
    await ok(write(mart, 'status', { removed: false }));
    // The report now reads raw directly: its old edge to the mart is gone.
    await ok(write(report, 'upstreamLineage', upstreams(raw)));
    assert.deepEqual(await reached(raw, 'direction=DOWNSTREAM'), [`1 ${clean}`, `1 ${report}`, `2 ${mart}`, `3 ${job}`, `4 ${exported}`]);
    assert.deepEqual(await reached(report, 'direction=UPSTREAM'), [`1 ${raw}`]);
    await ok(write(report, 'upstreamLineage', upstreams(mart)));
    const gone = await t.call({ method: 'DELETE', url: `/openapi/v2/entity/dataJob/${enc(job)}` });
    assert.equal(gone.status, 200, gone.raw);
    assert.deepEqual(await reached(exported, 'direction=UPSTREAM'), []);
  });

  it('answers what it reached, marked partial, when the walk runs out of its budget', async () => {
    const { store, registry } = t.services;
    const lineage = new Lineage(store, registry, new GraphEdges(registry).walkKinds());
    // A clock that moves 10 ms each time it is read: the first level's read fits 15 ms, the next does not.
    let clock = 0;
    const now = () => (clock += 10);
    const walked = await lineage.walk({ root: raw, direction: 'DOWNSTREAM', maxHops: 10, budgetMs: 15, includeRemoved: false }, now);
    assert.deepEqual([walked.partial, walked.hops, walked.hits.map((h) => h.urn)], [true, 1, [clean]]);
    const whole = await lineage.walk({ root: raw, direction: 'DOWNSTREAM', maxHops: 10, budgetMs: 10_000, includeRemoved: false });
    assert.equal(whole.partial, false);
  });

  it('scrolls the lineage edges at anchor URNs as the SDK\'s scroll_lineage asks (body {urns}, direction), saying which end is upstream', async () => {
    const scroll = async (query: string, urns: string[]) => {
      const res = await t.call({ method: 'POST', url: `/openapi/v3/lineage/scroll?${query}`, payload: { urns } });
      assert.equal(res.status, 200, res.raw);
      return res.body as { scrollId: string | null; results: Array<{ relationshipType: string; source: { urn: string }; upstream: string; downstream: string }> };
    };
    // The job again (an earlier test deleted it).
    await ok(write(job, 'dataJobInputOutput', { inputDatasets: [mart], outputDatasets: [exported] }, 'dataJob'));
    const upstream = await scroll('direction=UPSTREAM', [mart]);
    assert.deepEqual(upstream, {
      scrollId: null,
      results: [
        {
          relationshipType: 'DownstreamOf',
          source: { entityType: 'dataset', urn: mart },
          destination: { entityType: 'dataset', urn: clean },
          upstream: clean,
          downstream: mart,
        },
      ],
    });
    const flow = (page: Awaited<ReturnType<typeof scroll>>) => page.results.map((r) => `${r.upstream} ${r.relationshipType} ${r.downstream}`);
    assert.deepEqual(flow(await scroll('direction=DOWNSTREAM', [mart])), [`${mart} Consumes ${job}`, `${mart} DownstreamOf ${report}`]);
    // A job's outputs are downstream of it by Produces, an edge out of the job that points downstream.
    assert.deepEqual(flow(await scroll('direction=DOWNSTREAM', [job])), [`${job} Produces ${exported}`]);
    assert.deepEqual(flow(await scroll('direction=UPSTREAM', [exported])), [`${job} Produces ${exported}`]);
    // No direction: every lineage edge at the anchors, each once, in one order across pages.
    const both = await scroll('', [mart, clean]);
    assert.deepEqual(flow(both), [`${mart} Consumes ${job}`, `${raw} DownstreamOf ${clean}`, `${clean} DownstreamOf ${mart}`, `${mart} DownstreamOf ${report}`]);
    const first = await scroll('count=3', [mart, clean]);
    assert.equal(first.results.length, 3);
    const rest = await scroll(`count=3&scrollId=${first.scrollId}`, [mart, clean]);
    assert.deepEqual([...flow(first), ...flow(rest)], flow(both));
    assert.equal(rest.scrollId, null);
  });

  it('refuses what a lineage scroll cannot serve: a bad direction, other body filters, anchors with sourceUrns', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['direction=SIDEWAYS', { urns: [mart] }, 'direction must be UPSTREAM or DOWNSTREAM, got "SIDEWAYS"'],
      ['', { sourceFilter: { or: [{ and: [{ field: 'urn', values: [mart] }] }] } }, 'Body filters other than urns are not served: give the others as query parameters (relationshipTypes, sourceTypes, destinationTypes, sourceUrns, destinationUrns)'],
      [`sourceUrns=${enc(mart)}`, { urns: [clean] }, 'Give anchor URNs in the body or sourceUrns and destinationUrns, not both'],
      ['', { urns: 'nope' }, 'urns must be a list of at most 1000 URNs'],
    ];
    for (const [query, payload, message] of cases) {
      const res = await t.call({ method: 'POST', url: `/openapi/v3/lineage/scroll?${query}`, payload: payload as object });
      assert.equal(res.status, 400, `${query}: ${res.raw}`);
      assert.equal(res.body.message, message, res.raw);
    }
    const invalid = await t.call({ method: 'POST', url: '/openapi/v3/lineage/scroll', payload: { urns: ['nope'] } });
    assert.deepEqual([invalid.status, invalid.body], [400, { error: 'Invalid urn!: nope' }]);
  });

  it('refuses a bad direction, maxHops, degree, budget or URN with a 400 naming it', async () => {
    const cases: Array<[string, string, string]> = [
      ['dataset', `${enc(raw)}?direction=SIDEWAYS`, 'direction must be UPSTREAM or DOWNSTREAM, got "SIDEWAYS"'],
      ['dataset', `${enc(raw)}?maxHops=2`, "querystring must have required property 'direction'"],
      ['dataset', `${enc(raw)}?direction=UPSTREAM&maxHops=0`, 'maxHops must be a whole number from 1 to 1000, got 0'],
      ['dataset', `${enc(raw)}?direction=UPSTREAM&degree=4`, 'degree must be 1, 2 or 3+, got "4"'],
      ['dataset', `${enc(raw)}?direction=UPSTREAM&budgetMs=60001`, 'budgetMs must be a whole number from 1 to 60000, got 60001'],
      ['dataset', `${enc(raw)}?direction=UPSTREAM&types=nope`, 'Unknown entity type nope'],
      ['chart', `${enc(raw)}?direction=UPSTREAM`, `The URN ${raw} is not of entity type chart`],
    ];
    for (const [type, rest, message] of cases) {
      const res = await t.call({ method: 'GET', url: `/openapi/v3/lineage/${type}/${rest}` });
      assert.equal(res.status, 400, `${rest}: ${res.raw}`);
      assert.equal(res.body.message, message, rest);
    }
  });
});
