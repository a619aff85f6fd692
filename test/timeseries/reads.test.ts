import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, type TestApp } from '../helpers.js';
import { pythonEmit, pythonGetEntity, pythonHeaders, pyDumps, restliError } from '../restli/clients.js';
import { emitProfile, pointValues, profile, timeseriesValues } from './points.js';

/** Reads of timeseries points: Rest.li getTimeseriesAspectValues, the v2 scroll, v3 reads and the CLI's `datahub get`. */
describe('timeseries reads', () => {
  let t: TestApp;
  const urn = datasetUrn('ts.reads.orders');
  const other = datasetUrn('ts.reads.customers');
  before(async () => {
    t = await testApp();
    for (let i = 1; i <= 5; i++) {
      const res = await t.call(emitProfile(urn, profile(i * 1_000, i * 10, { partitionSpec: { partition: i % 2 === 0 ? 'even' : 'odd' } })));
      assert.equal(res.status, 200, res.raw);
    }
    await t.call(emitProfile(other, profile(2_500, 7)));
  });
  after(() => t.app.close());

  const rows = (body: unknown) => pointValues(body as never).map((p) => (p as { rowCount: number }).rowCount);
  const read = (body: Record<string, unknown>) => t.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile', ...body }));

  it('answers every point newest first, each value a JSON string with its system metadata, in DataHub\'s envelope', async () => {
    const res = await read({});
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.headers['x-restli-protocol-version'], '2.0.0');
    assert.deepEqual(Object.keys(res.body.value), ['entityName', 'aspectName', 'limit', 'values']);
    assert.equal(res.body.value.entityName, 'dataset');
    assert.equal(res.body.value.aspectName, 'datasetProfile');
    assert.equal(res.body.value.limit, 10_000);
    assert.deepEqual(rows(res.body), [50, 40, 30, 20, 10]);
    const [first] = res.body.value.values;
    assert.equal(first.aspect.contentType, 'application/json');
    assert.equal(first.aspect.value, JSON.stringify(profile(5_000, 50, { partitionSpec: { partition: 'odd' } })));
    assert.equal(first.systemMetadata.runId, 'no-run-id-provided');
    assert.equal(first.systemMetadata.properties.eventSource, 'RESTLI');
  });

  it('takes a limit, a time range (both ends included) and latestValue (the one latest point, limit 1)', async () => {
    assert.deepEqual(rows((await read({ limit: 2 })).body), [50, 40]);
    const range = await read({ startTimeMillis: 2_000, endTimeMillis: 4_000 });
    assert.deepEqual(rows(range.body), [40, 30, 20]);
    assert.equal(range.body.value.startTimeMillis, 2_000);
    assert.equal(range.body.value.endTimeMillis, 4_000);
    const latest = await read({ latestValue: true });
    assert.equal(latest.body.value.limit, 1);
    assert.deepEqual(rows(latest.body), [50]);
    assert.deepEqual(rows((await read({ endTimeMillis: 3_500, latestValue: true })).body), [30]);
  });

  it('filters on top-level fields: EQUAL with value or values, IN, the older criteria form, negation, comparisons', async () => {
    const filter = (criteria: unknown[]) => ({ or: [{ and: criteria }] });
    assert.deepEqual(rows((await read({ filter: filter([{ field: 'rowCount', value: '30', condition: 'EQUAL' }]) })).body), [30]);
    assert.deepEqual(rows((await read({ filter: filter([{ field: 'rowCount', values: ['20', '40'], condition: 'IN' }]) })).body), [40, 20]);
    assert.deepEqual(rows((await read({ filter: { criteria: [{ field: 'rowCount', values: ['10'] }] } })).body), [10]);
    assert.deepEqual(rows((await read({ filter: filter([{ field: 'rowCount', value: '30', negated: true }]) })).body), [50, 40, 20, 10]);
    assert.deepEqual(rows((await read({ filter: filter([{ field: 'rowCount', value: '25', condition: 'GREATER_THAN' }]), limit: 2 })).body), [50, 40]);
    const or = { or: [{ and: [{ field: 'rowCount', value: '10' }] }, { and: [{ field: 'rowCount', value: '50' }] }] };
    assert.deepEqual(rows((await read({ filter: or })).body), [50, 10]);
    assert.deepEqual(rows((await read({ filter: filter([{ field: 'rowCount', value: '99' }]) })).body), []);
  });

  it('finds filtered points page after page, deep in a long series', async (ctx) => {
    // A catalog of its own, so that the scroll below sees only the points above.
    const own = await testApp();
    ctx.after(() => own.app.close());
    const long = datasetUrn('ts.reads.long');
    const points = Array.from({ length: 1_200 }, (_, i) => ({
      urn: long,
      entityType: 'dataset',
      aspect: 'datasetProfile',
      timestampMillis: 10_000 + i,
      key: '',
      value: profile(10_000 + i, i),
      systemMetadata: { lastObserved: 1 },
      written: { time: 1, actor: 'urn:li:corpuser:test' },
    }));
    await own.services.store.commit({ writes: [], events: [], points });
    const body = { urn: long, entity: 'dataset', aspect: 'datasetProfile', filter: { or: [{ and: [{ field: 'rowCount', condition: 'IN', values: ['3', '700', '1150'] }] }] } };
    assert.deepEqual(rows((await own.call(timeseriesValues(body))).body), [1150, 700, 3]);
    assert.deepEqual(rows((await own.call(timeseriesValues({ ...body, limit: 2 }))).body), [1150, 700]);
    assert.deepEqual(rows((await own.call(timeseriesValues({ ...body, endTimeMillis: 10_699 }))).body), [3]);
  });

  it('refuses with 400 an unknown or versioned aspect, a mismatched entity, a bad filter, limit or time', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ aspect: 'noSuchAspect' }, 'Unknown aspect noSuchAspect for entity type dataset'],
      [{ aspect: 'datasetProperties' }, 'datasetProperties is not a timeseries aspect of dataset: its versions are read with GET /aspects/{urn}?aspect=datasetProperties'],
      [{ entity: 'chart' }, `entity chart does not match the URN ${urn}, which is of entity type dataset`],
      [{ entity: undefined }, 'entity is required: the entity type of the URN'],
      [{ filter: { or: [{ and: [{ field: 'nope', value: '1' }] }] } }, 'filter.or[0].and[0].field "nope" is not a field of datasetProfile that points can be filtered on (its top-level scalar fields: timestampMillis, messageId, rowCount, columnCount)'],
      [{ filter: { or: [{ and: [{ field: 'rowCount', value: '1', condition: 'CONTAIN' }] }] } }, 'filter.or[0].and[0].condition "CONTAIN" is not supported for timeseries aspects (supported: EQUAL, IN, EXISTS, GREATER_THAN, GREATER_THAN_OR_EQUAL_TO, LESS_THAN, LESS_THAN_OR_EQUAL_TO)'],
      [{ filter: { or: 'x' } }, 'filter.or must be a list of {"and": [criterion…]}'],
      [{ limit: 0 }, 'limit must be an integer from 1 to 10,000, got 0'],
      [{ startTimeMillis: 'today' }, 'startTimeMillis must be an integer (epoch milliseconds), got "today"'],
      [{ sort: { field: 'rowCount', order: 'ASCENDING' } }, 'sort: points are answered newest first; only {"field": "timestampMillis", "order": "DESCENDING"} is supported'],
    ];
    for (const [body, message] of cases) {
      const res = await read(body);
      assert.equal(res.status, 400, message);
      assert.deepEqual(res.body, restliError(400, message));
    }
  });

  it('answers the CLI\'s `datahub get --aspect datasetProfile`: entitiesV2 for the rest, latestValue for the point', async () => {
    // get_aspects_for_entity: the versioned aspects through entitiesV2, then each timeseries one as below.
    const entity = await t.call(pythonGetEntity(urn));
    assert.equal(entity.status, 200);
    const res = await t.call({ method: 'POST', url: '/aspects?action=getTimeseriesAspectValues', headers: pythonHeaders(), payload: pyDumps({ urn, entity: 'dataset', aspect: 'datasetProfile', latestValue: true }) });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body.value.values[0].aspect.value), profile(5_000, 50, { partitionSpec: { partition: 'odd' } }));
  });

  it('scrolls an aspect across entities with GET /openapi/v2/timeseries, newest first, count and scrollId', async () => {
    const first = await t.call({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProfile?count=3&systemMetadata=true' });
    assert.equal(first.status, 200, first.raw);
    assert.deepEqual(first.body.results.map((r: { urn: string; timestampMillis: number }) => [r.urn, r.timestampMillis]), [[urn, 5_000], [urn, 4_000], [urn, 3_000]]);
    assert.deepEqual(first.body.results[0].event, profile(5_000, 50, { partitionSpec: { partition: 'odd' } }));
    assert.equal(first.body.results[0].systemMetadata.runId, 'no-run-id-provided');
    const second = await t.call({ method: 'GET', url: `/openapi/v2/timeseries/dataset/datasetProfile?count=3&scrollId=${first.body.scrollId}` });
    assert.deepEqual(second.body.results.map((r: { urn: string; timestampMillis: number }) => [r.urn, r.timestampMillis]), [[other, 2_500], [urn, 2_000], [urn, 1_000]]);
    assert.equal('systemMetadata' in second.body.results[0], false);
    assert.equal(second.body.scrollId, null);
    const ranged = await t.call({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProfile?startTimeMillis=2000&endTimeMillis=3000' });
    assert.deepEqual(ranged.body.results.map((r: { timestampMillis: number }) => r.timestampMillis), [3_000, 2_500, 2_000]);
    const versioned = await t.call({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProperties' });
    assert.equal(versioned.status, 400);
    assert.equal(versioned.body.message, 'Only timeseries aspects are supported.');
    const badScroll = await t.call({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProfile?scrollId=nope' });
    assert.equal(badScroll.status, 400);
    assert.equal(badScroll.body.message, 'Invalid scrollId: nope');
  });

  it('answers a timeseries aspect with its latest point in v3 reads, and not at all in v2 ones', async () => {
    const latest = profile(5_000, 50, { partitionSpec: { partition: 'odd' } });
    const aspect = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}/datasetProfile?systemMetadata=true` });
    assert.equal(aspect.status, 200, aspect.raw);
    assert.deepEqual(aspect.body.value, latest);
    assert.equal(aspect.body.systemMetadata.runId, 'no-run-id-provided');
    assert.equal('auditStamp' in aspect.body, false);
    const before = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}/datasetProfile?version=2500` });
    assert.deepEqual(before.body, { value: profile(2_000, 20, { partitionSpec: { partition: 'even' } }) }, 'version N: the latest point at or before N');
    const entity = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}` });
    assert.deepEqual(entity.body.datasetProfile, { value: latest });
    const named = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}?aspects=datasetProfile` });
    assert.deepEqual(named.body, { urn, datasetProfile: { value: latest } });
    const batchGet = await t.call({ method: 'POST', url: '/openapi/v3/entity/dataset/batchGet', payload: [{ urn, datasetProfile: {} }] });
    assert.equal(batchGet.status, 200, batchGet.raw);
    assert.deepEqual(batchGet.body, [{ urn, datasetProfile: { value: latest } }]);
    const scroll = await t.call({ method: 'GET', url: '/openapi/v3/entity/dataset?count=10&aspects=datasetProfile' });
    assert.equal(scroll.status, 200, scroll.raw);
    assert.deepEqual(scroll.body.entities.find((e: { urn: string }) => e.urn === urn)?.datasetProfile, { value: latest });
    const none = await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${enc(urn)}/operation` });
    assert.equal(none.status, 404);
    const v2 = await t.call({ method: 'GET', url: `/openapi/v2/entity/dataset/${enc(urn)}/datasetProfile` });
    assert.equal(v2.status, 404);
  });

  it('lets a reader read points, and not write them', async () => {
    const secured = await testApp({ auth: true, adminToken: 'an-admin-token-long-enough-for-the-rules-0123' });
    try {
      const admin = { authorization: 'Bearer an-admin-token-long-enough-for-the-rules-0123' };
      const made = await secured.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name: 'reader', role: 'viewer' } });
      assert.equal(made.status, 201, made.raw);
      const viewer = pythonHeaders(made.body.token);
      const readRes = await secured.call({ method: 'POST', url: '/aspects?action=getTimeseriesAspectValues', headers: viewer, payload: pyDumps({ urn, entity: 'dataset', aspect: 'datasetProfile' }) });
      assert.equal(readRes.status, 200, readRes.raw);
      const write = await secured.call({ ...pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: profile(1, 1) }), headers: viewer });
      assert.equal(write.status, 403);
      assert.deepEqual(write.body, restliError(403, 'urn:li:corpuser:reader is unauthorized to write entities.'));
    } finally {
      await secured.app.close();
    }
  });
});
