import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pythonEmit, pythonEmitBatch, pythonGetEntity, restliError } from '../restli/clients.js';
import { emitProfile, pointValues, profile, timeseriesValues } from './points.js';

/** Writes of timeseries aspects: every route, one write path, points apart from versioned aspects. */
describe('timeseries writes', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const points = async (urn: string, aspect = 'datasetProfile') =>
    pointValues((await t.call(timeseriesValues({ urn, entity: 'dataset', aspect }))).body);
  const eventCount = async () => (await t.services.store.readEvents(0, 100_000)).length;

  it('appends each point written through Rest.li ingestProposal, newest first, and logs an UPSERT event with the value', async () => {
    const urn = datasetUrn('ts.writes.restli');
    for (const [time, rows] of [[1_000, 10], [3_000, 30], [2_000, 20]]) {
      const res = await t.call(emitProfile(urn, profile(time, rows)));
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, { value: 'success' });
    }
    assert.deepEqual(await points(urn), [profile(3_000, 30), profile(2_000, 20), profile(1_000, 10)]);
    const logged = (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === urn && e.aspect === 'datasetProfile');
    assert.deepEqual(logged.map((e) => [e.changeType, e.value, e.previousValue]), [
      ['UPSERT', profile(1_000, 10), null],
      ['UPSERT', profile(3_000, 30), null],
      ['UPSERT', profile(2_000, 20), null],
    ]);
    assert.equal(logged[0].systemMetadata?.version, undefined, 'a point has no version');
    assert.equal(logged[0].systemMetadata?.properties?.eventSource, 'RESTLI');
  });

  it('writes points in a Rest.li batch, the OpenAPI v2 batch and aspect routes, and v3', async () => {
    const urn = datasetUrn('ts.writes.routes');
    const batch = await t.call(
      pythonEmitBatch([
        { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: profile(1, 1) },
        { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'operation', aspect: { timestampMillis: 1, operationType: 'INSERT', lastUpdatedTimestamp: 1 } },
      ]),
    );
    assert.equal(batch.status, 200, batch.raw);
    const v2Batch = await t.call({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn, aspects: { datasetProfile: { value: profile(2, 2) } } }] });
    assert.equal(v2Batch.status, 202, v2Batch.raw);
    const v2Aspect = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/datasetProfile`, payload: profile(3, 3) });
    assert.equal(v2Aspect.status, 200, v2Aspect.raw);
    const v3Aspect = await t.call({ method: 'POST', url: `/openapi/v3/entity/dataset/${enc(urn)}/datasetProfile`, payload: { value: profile(4, 4) } });
    assert.equal(v3Aspect.status, 200, v3Aspect.raw);
    assert.deepEqual(v3Aspect.body, { urn, datasetProfile: { value: profile(4, 4) } });
    const v3Batch = await t.call({ method: 'POST', url: '/openapi/v3/entity/dataset?async=false', payload: [{ urn, datasetProfile: { value: profile(5, 5) } }] });
    assert.equal(v3Batch.status, 200, v3Batch.raw);
    assert.deepEqual(await points(urn), [5, 4, 3, 2, 1].map((n) => profile(n, n)));
    assert.deepEqual(await points(urn, 'operation'), [{ timestampMillis: 1, operationType: 'INSERT', lastUpdatedTimestamp: 1 }]);
  });

  it('replaces the point with the same timestampMillis, partition and messageId, and keeps those that differ in one of them', async () => {
    const urn = datasetUrn('ts.writes.same-key');
    const writes = [
      profile(1_000, 1),
      profile(1_000, 2), // same key: replaces
      profile(1_000, 3, { partitionSpec: { partition: 'p1' } }),
      profile(1_000, 4, { partitionSpec: { partition: 'p1' } }), // same key: replaces
      profile(1_000, 5, { messageId: 'm1' }),
      profile(1_000, 6, { eventGranularity: { unit: 'DAY', multiple: 1 } }),
      profile(1_000, 7, { eventGranularity: { multiple: 1, unit: 'DAY' } }), // the same granularity: replaces
    ];
    for (const value of writes) assert.equal((await t.call(emitProfile(urn, value))).status, 200);
    const stored = await points(urn);
    assert.equal(stored.length, 4);
    assert.deepEqual(
      stored.map((p) => (p as { rowCount: number }).rowCount).sort(),
      [2, 4, 5, 7],
    );
  });

  it('keeps points out of versions, history, the versioned reads and search', async () => {
    const urn = datasetUrn('ts.writes.apart');
    await t.call(emitProfile(urn, profile(10, 1)));
    await t.call(emitProfile(urn, profile(20, 2, { messageId: 'zebrafish', partitionSpec: { partition: 'zebrafish' } })));
    assert.equal(await t.services.store.getVersion(urn, 'datasetProfile', 0), undefined, 'no latest value');
    assert.deepEqual((await t.services.store.getHistory(urn, 0, 100)).map((v) => v.aspect), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey'], 'only the key and defaults have versions');
    const v2 = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/datasetProfile` });
    assert.equal(v2.status, 404);
    const v2Entity = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}` });
    assert.equal('datasetProfile' in v2Entity.body.aspects, false);
    const restli = await t.call(pythonGetEntity(urn));
    assert.equal('datasetProfile' in restli.body.aspects, false);
    const search = await t.call({ method: 'GET', url: `${V2}/dataset?query=zebrafish` });
    assert.equal(search.status, 200, search.raw);
    assert.deepEqual(search.body.results, []);
  });

  it('creates the entity a first point names (its key), as DataHub does', async () => {
    const urn = datasetUrn('ts.writes.new-entity');
    await t.call(emitProfile(urn, profile(1, 1)));
    const head = await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` });
    assert.equal(head.status, 204);
  });

  it('refuses a point without timestampMillis, a bad value and a PATCH with 400 naming what is wrong, writing nothing', async () => {
    const urn = datasetUrn('ts.writes.refused');
    const before = await eventCount();
    const missing = await t.call(emitProfile(urn, { rowCount: 1 }));
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, restliError(400, "datasetProfile.timestampMillis is required: a timeseries aspect's value is a point in time (epoch milliseconds)"));
    const notInteger = await t.call(emitProfile(urn, { timestampMillis: 'yesterday' }));
    assert.deepEqual(notInteger.body, restliError(400, 'datasetProfile.timestampMillis must be an integer (epoch milliseconds), got "yesterday"'));
    const badField = await t.call(emitProfile(urn, profile(1, 1, { rowCount: 'many' })));
    assert.equal(badField.status, 400);
    assert.deepEqual(badField.body, restliError(400, 'Aspect datasetProfile is invalid: field rowCount must be integer'));
    const bothPartitions = await t.call(emitProfile(urn, profile(1, 1, { partitionSpec: { partition: 'p', timePartition: { startTimeMillis: 0, length: { unit: 'DAY', multiple: 1 } } } })));
    assert.deepEqual(bothPartitions.body, restliError(400, 'datasetProfile.partitionSpec may have partition or timePartition, not both'));
    const patchMessage = 'datasetProfile is a timeseries aspect: its points cannot be patched (DataHub refuses it too); send the whole point with UPSERT';
    const restliPatch = await t.call(
      pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'PATCH', aspectName: 'datasetProfile', aspect: [{ op: 'add', path: '/rowCount', value: 2 }] }),
    );
    assert.equal(restliPatch.status, 400);
    assert.deepEqual(restliPatch.body, restliError(400, patchMessage));
    const v2Patch = await t.call({ method: 'PATCH', url: `${V2}/dataset/${enc(urn)}/datasetProfile`, payload: { patch: [{ op: 'add', path: '/rowCount', value: 2 }] } });
    assert.equal(v2Patch.status, 400);
    assert.equal(v2Patch.body.message, patchMessage);
    const v3Patch = await t.call({ method: 'PATCH', url: `/openapi/v3/entity/dataset/${enc(urn)}/datasetProfile`, payload: { patch: [{ op: 'add', path: '/rowCount', value: 2 }] } });
    assert.equal(v3Patch.status, 400);
    assert.equal(v3Patch.body.message, patchMessage);
    // A batch with one bad point writes none of its points.
    const batch = await t.call(
      pythonEmitBatch([
        { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: profile(5, 5) },
        { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: { rowCount: 6 } },
      ]),
    );
    assert.deepEqual(batch.body, restliError(400, "datasetProfile.timestampMillis is required: a timeseries aspect's value is a point in time (epoch milliseconds)"));
    assert.equal(await eventCount(), before);
    assert.deepEqual(await points(urn), []);
  });
});
