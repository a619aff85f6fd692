import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, type TestApp, upstreams } from '../helpers.js';
import { graphql, SDK_LINEAGE } from './queries.js';

/**
 * searchAcrossLineage and scrollAcrossLineage over the Lineage service (both stores): a chain
 * raw → clean → (snowflake) mart → report, a job reading the mart and writing an export, a
 * soft-deleted dataset downstream of raw (with one of its own beyond it), a two-dataset cycle.
 */

const ADMIN_SECRET = 'urnb_graphql-lineage-admin-0123456789abcdefghij';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

const raw = datasetUrn('gl.raw');
const clean = datasetUrn('gl.clean');
const mart = datasetUrn('gl.mart', 'snowflake');
const report = datasetUrn('gl.report', 'snowflake');
const exported = datasetUrn('gl.export', 's3');
const gone = datasetUrn('gl.gone');
const beyond = datasetUrn('gl.beyond');
const ping = datasetUrn('gl.ping');
const pong = datasetUrn('gl.pong');
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,gl_export,prod),copy)';
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;
const columns = (from: string, to: string) => ({ fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [from], downstreams: [to] }] });

const SEARCH = `query lineage($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    start count total isPartial
    searchResults { entity { urn type } degree degrees paths { path { urn type } } explored truncatedChildren ignoredAsHop insights { text } matchedFields { name } }
    facets { field displayName aggregations { value count displayName entity { urn } } }
  }
}`;
const SCROLL = `query page($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId count total searchResults { entity { urn } degree } }
}`;

describe('GraphQL lineage searches', () => {
  let t: TestApp;
  let viewer: string;
  const admin = bearer(ADMIN_SECRET);
  const write = async (urn: string, aspect: string, value: object, type = 'dataset') => {
    const res = await t.call({ method: 'POST', url: `/openapi/v2/entity/${type}/${enc(urn)}/${aspect}`, headers: admin, payload: value });
    assert.equal(res.status, 200, res.raw);
  };
  /** The answer to a query run with the admin token, with no errors. */
  const run = async (query: string, input: Record<string, unknown>, headers = admin) => {
    const { status, body } = await graphql(t, query, { input }, headers);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };
  /** `degree urn` of each result of a search with these inputs. */
  const reached = async (input: Record<string, unknown>) => {
    const page = (await run(SEARCH, { query: '*', count: 100, ...input })).searchAcrossLineage;
    return page.searchResults.map((r: { degree: number; entity: { urn: string } }) => `${r.degree} ${r.entity.urn}`);
  };
  const refusal = async (input: Record<string, unknown>) => {
    const { status, body } = await graphql(t, SEARCH, { input }, admin);
    assert.equal(status, 200);
    assert.equal(body.data.searchAcrossLineage, null);
    return body.errors;
  };
  const badRequest = (message: string) => [{ message, locations: [{ line: 2, column: 3 }], path: ['searchAcrossLineage'], extensions: { code: 400, type: 'BAD_REQUEST' } }];

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN_SECRET, authFailureLimit: 100_000 });
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'reader', role: 'viewer' } });
    assert.equal(made.status, 201);
    viewer = made.body.token;
    await write(clean, 'upstreamLineage', upstreams(raw));
    await write(mart, 'upstreamLineage', { ...upstreams(clean), ...columns(field(clean, 'id'), field(mart, 'id')) });
    await write(report, 'upstreamLineage', { ...upstreams(mart), ...columns(field(mart, 'id'), field(report, 'order_id')) });
    await write(job, 'dataJobInputOutput', { inputDatasets: [mart], outputDatasets: [exported] }, 'dataJob');
    await write(job, 'dataJobInfo', { name: 'copy', description: 'Copies the mart out', type: { string: 'COMMAND' }, customProperties: {} }, 'dataJob');
    await write(gone, 'upstreamLineage', upstreams(raw));
    await write(beyond, 'upstreamLineage', upstreams(gone));
    await write(gone, 'status', { removed: true });
    await write(ping, 'upstreamLineage', upstreams(pong));
    await write(pong, 'upstreamLineage', upstreams(ping));
  });
  after(() => t.app.close());

  it('answers degrees, paths and facets downstream, through the job, past the soft-deleted dataset', async () => {
    const page = (await run(SEARCH, { urn: raw, direction: 'DOWNSTREAM', query: '*' })).searchAcrossLineage;
    const result = (urn: string, degree: number, path: Array<[string, string]>) => ({
      entity: { urn, type: urn === job ? 'DATA_JOB' : 'DATASET' },
      degree,
      degrees: [degree],
      paths: [{ path: path.map(([u, type]) => ({ urn: u, type })) }],
      explored: true,
      truncatedChildren: false,
      ignoredAsHop: false,
      insights: [],
      matchedFields: [],
    });
    const d = (urn: string): [string, string] => [urn, 'DATASET'];
    assert.deepEqual(page, {
      start: 0,
      count: 5,
      total: 5,
      isPartial: false,
      searchResults: [
        result(clean, 1, [d(raw), d(clean)]),
        result(mart, 2, [d(raw), d(clean), d(mart)]),
        result(job, 3, [d(raw), d(clean), d(mart), [job, 'DATA_JOB']]),
        result(report, 3, [d(raw), d(clean), d(mart), d(report)]),
        result(exported, 4, [d(raw), d(clean), d(mart), [job, 'DATA_JOB'], d(exported)]),
      ],
      facets: [
        { field: 'degree', displayName: 'Degree', aggregations: [{ value: '1', count: 1, displayName: null, entity: null }, { value: '2', count: 1, displayName: null, entity: null }, { value: '3+', count: 3, displayName: null, entity: null }] },
        { field: '_entityType', displayName: 'Type', aggregations: [{ value: 'DATASET', count: 4, displayName: null, entity: null }, { value: 'DATA_JOB', count: 1, displayName: null, entity: null }] },
        {
          field: 'platform',
          displayName: 'Platform',
          aggregations: [
            { value: 'urn:li:dataPlatform:snowflake', count: 2, displayName: null, entity: { urn: 'urn:li:dataPlatform:snowflake' } },
            { value: 'urn:li:dataPlatform:airflow', count: 1, displayName: null, entity: { urn: 'urn:li:dataPlatform:airflow' } },
            { value: 'urn:li:dataPlatform:hive', count: 1, displayName: null, entity: { urn: 'urn:li:dataPlatform:hive' } },
            { value: 'urn:li:dataPlatform:s3', count: 1, displayName: null, entity: { urn: 'urn:li:dataPlatform:s3' } },
          ],
        },
      ],
    });
  });

  it('answers the degrees and paths the REST lineage answers, both directions', async () => {
    for (const [urn, direction] of [[raw, 'DOWNSTREAM'], [exported, 'UPSTREAM'], [report, 'UPSTREAM'], [ping, 'DOWNSTREAM']]) {
      const rest = await t.call({ method: 'GET', url: `/openapi/v3/lineage/dataset/${enc(urn)}?direction=${direction}`, headers: admin });
      assert.equal(rest.status, 200, rest.raw);
      const page = (await run(SEARCH, { urn, direction, count: 100 })).searchAcrossLineage;
      assert.deepEqual(
        page.searchResults.map((r: { entity: { urn: string }; degree: number; paths: Array<{ path: Array<{ urn: string }> }> }) => ({ entity: r.entity.urn, degree: r.degree, paths: r.paths.map((p) => p.path.map((e) => e.urn)) })),
        rest.body.results.map((r: { entity: string; degree: number; paths: string[][] }) => ({ entity: r.entity, degree: r.degree, paths: r.paths })),
      );
      assert.equal(page.total, rest.body.total);
    }
    assert.deepEqual(await reached({ urn: exported, direction: 'UPSTREAM' }), [`1 ${job}`, `2 ${mart}`, `3 ${clean}`, `4 ${raw}`]);
    // The cycle: each entity once, the root never.
    assert.deepEqual(await reached({ urn: ping, direction: 'UPSTREAM' }), [`1 ${pong}`]);
  });

  it('walks through a soft-deleted dataset only when includeSoftDeleted is set', async () => {
    assert.equal((await reached({ urn: raw, direction: 'DOWNSTREAM' })).includes(`1 ${gone}`), false);
    const all = await reached({ urn: raw, direction: 'DOWNSTREAM', searchFlags: { includeSoftDeleted: true } });
    assert.deepEqual(all.slice(0, 3), [`1 ${clean}`, `1 ${gone}`, `2 ${beyond}`]);
  });

  it('filters by types, _entityType, platform and degree, as DataHub UI and SDK send them', async () => {
    const down = { urn: raw, direction: 'DOWNSTREAM' };
    assert.deepEqual(await reached({ ...down, types: ['DATA_JOB'] }), [`3 ${job}`]);
    assert.deepEqual(await reached({ ...down, orFilters: [{ and: [{ field: '_entityType', values: ['DATA_JOB'] }] }] }), [`3 ${job}`]);
    assert.deepEqual(await reached({ ...down, types: ['DATASET'], orFilters: [{ and: [{ field: '_entityType', values: ['DATA_JOB'] }] }] }), []);
    assert.deepEqual(await reached({ ...down, orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }] }] }), [`2 ${mart}`, `3 ${report}`]);
    assert.deepEqual(await reached({ ...down, orFilters: [{ and: [{ field: 'platform.keyword', condition: 'IN', values: ['s3', 'airflow'] }] }] }), [`3 ${job}`, `4 ${exported}`]);
    assert.deepEqual(await reached({ ...down, orFilters: [{ and: [{ condition: 'EQUAL', negated: 'false', field: 'degree', values: ['1', '2'] }] }] }), [`1 ${clean}`, `2 ${mart}`]);
    assert.deepEqual(await reached({ ...down, orFilters: [{ and: [{ field: 'degree', values: ['3+'] }, { field: 'platform', values: ['snowflake'] }] }] }), [`3 ${report}`]);
  });

  it('pages by start and count, and by scroll until nextScrollId is null', async () => {
    const down = { urn: raw, direction: 'DOWNSTREAM', query: '' };
    const page = (await run(SEARCH, { ...down, start: 3, count: 2 })).searchAcrossLineage;
    assert.deepEqual([page.start, page.count, page.total, page.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn)], [3, 2, 5, [report, exported]]);
    const beyondEnd = (await run(SEARCH, { ...down, start: 9, count: 2 })).searchAcrossLineage;
    assert.deepEqual([beyondEnd.start, beyondEnd.count, beyondEnd.total, beyondEnd.searchResults], [9, 0, 5, []]);
    const pages: string[][] = [];
    let scrollId: string | null = null;
    do {
      const scrolled: { nextScrollId: string | null; count: number; total: number; searchResults: Array<{ entity: { urn: string } }> } = (await run(SCROLL, { ...down, count: 2, ...(scrollId ? { scrollId } : {}) })).scrollAcrossLineage;
      assert.equal(scrolled.total, 5);
      pages.push(scrolled.searchResults.map((r) => r.entity.urn));
      scrollId = scrolled.nextScrollId;
    } while (scrollId !== null);
    assert.deepEqual(pages, [[clean, mart], [job, report], [exported]]);
    const none = (await run(SCROLL, { ...down, count: 0 })).scrollAcrossLineage;
    assert.deepEqual(none, { nextScrollId: null, count: 0, total: 5, searchResults: [] });
  });

  it("answers the SDK lineage client's scroll, with the job's platform and paths", async () => {
    const variables = { urn: report, direction: 'UPSTREAM', count: 500, types: null, orFilters: [{ and: [{ field: 'degree', condition: 'EQUAL', values: ['1', '2', '3+'] }] }] };
    const data = await run(SDK_LINEAGE, variables);
    assert.deepEqual(data.scrollAcrossLineage, {
      nextScrollId: null,
      searchResults: [
        { degree: 1, entity: { urn: mart, type: 'DATASET', name: 'gl.mart', platform: { name: 'snowflake' }, properties: null }, paths: [{ path: [{ urn: report, type: 'DATASET' }, { urn: mart, type: 'DATASET' }] }] },
        { degree: 2, entity: { urn: clean, type: 'DATASET', name: 'gl.clean', platform: { name: 'hive' }, properties: null }, paths: [{ path: [{ urn: report, type: 'DATASET' }, { urn: mart, type: 'DATASET' }, { urn: clean, type: 'DATASET' }] }] },
        { degree: 3, entity: { urn: raw, type: 'DATASET', name: 'gl.raw', platform: { name: 'hive' }, properties: null }, paths: [{ path: [{ urn: report, type: 'DATASET' }, { urn: mart, type: 'DATASET' }, { urn: clean, type: 'DATASET' }, { urn: raw, type: 'DATASET' }] }] },
      ],
    });
    const down = await run(SDK_LINEAGE, { ...variables, urn: mart, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'degree', condition: 'EQUAL', values: ['1'] }] }] });
    assert.deepEqual(down.scrollAcrossLineage.searchResults.map((r: { entity: object }) => r.entity), [
      { urn: job, type: 'DATA_JOB', jobId: 'copy', dataPlatformInstance: { platform: { name: 'airflow' } }, properties: { name: 'copy', description: 'Copies the mart out' } },
      { urn: report, type: 'DATASET', name: 'gl.report', platform: { name: 'snowflake' }, properties: null },
    ]);
  });

  it("answers the SDK lineage client's column lineage: a schema field's, schema fields grouped as schema fields", async () => {
    const searchFlags = { groupingSpec: { groupingCriteria: { baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'SCHEMA_FIELD' } } };
    const data = await run(SDK_LINEAGE, { urn: field(report, 'order_id'), direction: 'UPSTREAM', count: 500, types: null, orFilters: [{ and: [{ field: 'degree', condition: 'EQUAL', values: ['1', '2', '3+'] }] }], searchFlags });
    const f = (urn: string) => ({ urn, type: 'SCHEMA_FIELD' });
    assert.deepEqual(data.scrollAcrossLineage, {
      nextScrollId: null,
      searchResults: [
        { degree: 1, entity: f(field(mart, 'id')), paths: [{ path: [f(field(report, 'order_id')), f(field(mart, 'id'))] }] },
        { degree: 2, entity: f(field(clean, 'id')), paths: [{ path: [f(field(report, 'order_id')), f(field(mart, 'id')), f(field(clean, 'id'))] }] },
      ],
    });
    const grouped = await graphql(t, SDK_LINEAGE, { input: { urn: field(report, 'order_id'), direction: 'UPSTREAM', searchFlags: { groupingSpec: { groupingCriteria: [{ baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'DATASET' }] } } } }, admin);
    assert.equal(grouped.body.errors[0].message, 'searchFlags.groupingSpec: grouping SCHEMA_FIELD as DATASET is not served; lineage results are never grouped');
  });

  it('answers a URN with no lineage (or none stored) with no results', async () => {
    const page = (await run(SEARCH, { urn: datasetUrn('gl.nowhere'), direction: 'UPSTREAM' })).searchAcrossLineage;
    assert.deepEqual([page.count, page.total, page.searchResults, page.isPartial], [0, 0, [], false]);
  });

  it('answers a viewer token', async () => {
    const data = await run(SCROLL, { urn: raw, direction: 'DOWNSTREAM', count: 1 }, bearer(viewer));
    assert.deepEqual(data.scrollAcrossLineage.searchResults, [{ entity: { urn: clean }, degree: 1 }]);
  });

  it('refuses what it cannot answer, naming it', async () => {
    const down = { urn: raw, direction: 'DOWNSTREAM' };
    assert.deepEqual(await refusal({ direction: 'DOWNSTREAM' }), badRequest('urn: the entity to walk from is required'));
    assert.deepEqual(await refusal({ ...down, urn: 'dataset:raw' }), badRequest('Invalid urn!: dataset:raw'));
    assert.deepEqual(await refusal({ ...down, query: 'orders' }), badRequest('query: text queries over lineage are not served, got "orders"; send * and filter with types and orFilters'));
    assert.deepEqual(await refusal({ ...down, start: -1 }), badRequest('start must be at least 0, got -1'));
    assert.deepEqual(await refusal({ ...down, count: -1 }), badRequest('count must be at least 0, got -1'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: 'degree', values: ['4'] }] }] }), badRequest('orFilters[0].and[0].values: degree must be 1, 2 or 3+, got "4"'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'] }] }] }), badRequest('orFilters[0].and[0].field: tags is not a lineage filter (served: degree, platform, _entityType)'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: 'platform', values: ['hive'], negated: true }] }] }), badRequest('orFilters[0].and[0].negated: lineage filters cannot be negated'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: 'degree', condition: 'CONTAIN', values: ['1'] }] }] }), badRequest('orFilters[0].and[0].condition: lineage filters take EQUAL or IN, got CONTAIN'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }, { and: [{ field: 'degree', values: ['2'] }] }] }), badRequest('orFilters: lineage takes one group of criteria, got 2'));
    assert.deepEqual(await refusal({ ...down, orFilters: [{ and: [{ field: '_entityType', values: ['NOPE'] }] }] }), badRequest('orFilters[0].and[0].values: unknown entity type NOPE'));
    assert.deepEqual(await refusal({ ...down, lineageFlags: { startTimeMillis: 1 } }), badRequest("lineageFlags.startTimeMillis: lineage is not filtered by time (urnbase's edges carry no time range); leave it out"));
    assert.deepEqual(await refusal({ ...down, endTimeMillis: 1 }), badRequest("endTimeMillis: lineage is not filtered by time (urnbase's edges carry no time range); leave it out"));
    assert.deepEqual(await refusal({ ...down, lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } }), badRequest('lineageFlags.ignoreAsHops: not served; every entity counts as a hop'));
    assert.deepEqual(await refusal({ ...down, lineageFlags: { entitiesExploredPerHopLimit: 0 } }), badRequest('lineageFlags.entitiesExploredPerHopLimit must be at least 1, got 0'));
    assert.deepEqual(await refusal({ ...down, viewUrn: 'urn:li:dataHubView:x' }), badRequest("viewUrn: views are not served by urnbase; send the view's filters in orFilters instead"));
    assert.deepEqual(await refusal({ ...down, sortInput: { sortCriteria: [{ field: 'urn', sortOrder: 'ASCENDING' }] } }), badRequest('sortInput: lineage results are ordered by degree, then URN; sorting is not served'));
    const scroll = await graphql(t, SCROLL, { input: { ...down, scrollId: 'abc' } }, admin);
    assert.deepEqual(scroll.body.errors[0].message, 'scrollId: "abc" is not a cursor of scrollAcrossLineage (send the nextScrollId of the previous page)');
  });

  it('accepts the flags it has no use for, and applies maxAggValues and skipAggregates', async () => {
    const down = { urn: raw, direction: 'DOWNSTREAM', lineageFlags: { entitiesExploredPerHopLimit: 100, startTimeMillis: null, endTimeMillis: null } };
    const few = (await run(SEARCH, { ...down, searchFlags: { skipCache: true, maxAggValues: 1 } })).searchAcrossLineage;
    assert.deepEqual(few.facets.map((f: { aggregations: Array<{ value: string }> }) => f.aggregations.map((a) => a.value)), [['1'], ['DATASET'], ['urn:li:dataPlatform:snowflake']]);
    const none = (await run(SEARCH, { ...down, searchFlags: { skipAggregates: true } })).searchAcrossLineage;
    assert.deepEqual([none.total, none.facets], [5, []]);
  });

  it('refuses a bad direction with the validation error graphql-js gives', async () => {
    const { status, body } = await graphql(t, SEARCH, { input: { urn: raw, direction: 'SIDEWAYS' } }, admin);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      errors: [{
        message: 'Variable "$input" got invalid value "SIDEWAYS" at "input.direction"; Value "SIDEWAYS" does not exist in "LineageDirection" enum.',
        locations: [{ line: 1, column: 15 }],
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' },
      }],
    });
  });

  it('counts lineage searches under the per-operation search limit', async () => {
    const aliases = Array.from({ length: 11 }, (_, i) => `l${i}: scrollAcrossLineage(input: {urn: "${raw}", direction: DOWNSTREAM}) { total }`).join(' ');
    const { body } = await graphql(t, `query many { ${aliases} }`, undefined, admin);
    assert.equal(body.errors[0].message, 'Operation many runs 11 searches; at most 10 may run in one operation');
  });
});
