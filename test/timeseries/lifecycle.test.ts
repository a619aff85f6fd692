import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TimeseriesRetention, PRUNE_CHUNK } from '../../src/events/timeseries-retention.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { aspect, brief, defineTest } from '../metatests/fixtures.js';
import { pyDumps, pythonEmit, pythonHardDelete, pythonHeaders, restliError } from '../restli/clients.js';
import { emitProfile, pointValues, profile, timeseriesValues } from './points.js';

/** Deletes by time range, an entity's delete, retention, metadata tests, and stateful ingestion's checkpoints. */
describe('timeseries lifecycle', () => {
  let t: TestApp;
  before(async () => (t = await testApp({ testsInterval: 0, testsOnChange: true })));
  after(() => t.app.close());

  const rows = async (urn: string) =>
    pointValues((await t.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile' }))).body).map((p) => (p as { rowCount: number }).rowCount);
  const deleteAction = (body: Record<string, unknown>) => t.call({ method: 'POST', url: '/entities?action=delete', headers: pythonHeaders(), payload: pyDumps(body) });

  it('deletes the points of a timeseries aspect in a time range with the delete action, counting them, the entity staying', async () => {
    const urn = datasetUrn('ts.life.range');
    for (let i = 1; i <= 5; i++) await t.call(emitProfile(urn, profile(i * 100, i)));
    await t.call(pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'operation', aspect: { timestampMillis: 200, operationType: 'INSERT', lastUpdatedTimestamp: 200 } }));
    const res = await deleteAction({ urn, aspectName: 'datasetProfile', startTimeMillis: 200, endTimeMillis: 400 });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { value: { urn, rows: 0, timeseriesRows: 3 } });
    assert.deepEqual(await rows(urn), [5, 1]);
    const open = await deleteAction({ urn, aspectName: 'datasetProfile', startTimeMillis: 300 });
    assert.deepEqual(open.body, { value: { urn, rows: 0, timeseriesRows: 1 } });
    assert.deepEqual(await rows(urn), [1]);
    const operations = await t.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'operation' }));
    assert.equal(operations.body.value.values.length, 1, 'another aspect keeps its points');
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 204);
  });

  it('refuses a range delete of a versioned or unknown aspect, or with a bad time, with 400', async () => {
    const urn = datasetUrn('ts.life.refused');
    const versioned = await deleteAction({ urn, aspectName: 'datasetProperties' });
    assert.equal(versioned.status, 400);
    assert.deepEqual(versioned.body, restliError(400, 'Not supported for non-timeseries aspect datasetProperties.'));
    assert.deepEqual((await deleteAction({ urn, aspectName: 'nothing' })).body, restliError(400, 'Unknown aspect nothing for entity type dataset'));
    assert.deepEqual((await deleteAction({ urn, aspectName: 'datasetProfile', endTimeMillis: 1.5 })).body, restliError(400, 'endTimeMillis must be an integer (epoch milliseconds), got 1.5'));
  });

  it('deletes an entity with its points: the delete action counts them, v2 and v3 deletes take them too', async () => {
    const urn = datasetUrn('ts.life.entity');
    await t.call(emitProfile(urn, profile(1, 1)));
    await t.call(emitProfile(urn, profile(2, 2)));
    const res = await t.call(pythonHardDelete(urn));
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.value.timeseriesRows, 2);
    assert.deepEqual(await rows(urn), []);
    for (const url of [`${V2}/dataset/${enc(urn)}`, `/openapi/v3/entity/dataset/${enc(urn)}`]) {
      await t.call(emitProfile(urn, profile(3, 3)));
      assert.equal((await t.call({ method: 'DELETE', url })).status, 200);
      assert.deepEqual(await rows(urn), [], url);
    }
  });

  it('deletes the latest point when a timeseries aspect is deleted through the entity APIs, as DataHub does', async () => {
    const urn = datasetUrn('ts.life.latest');
    await t.call(emitProfile(urn, profile(1, 1)));
    await t.call(emitProfile(urn, profile(2, 2)));
    assert.equal((await t.call({ method: 'DELETE', url: `/openapi/v3/entity/dataset/${enc(urn)}/datasetProfile` })).status, 200);
    assert.deepEqual(await rows(urn), [1]);
  });

  it('prunes points older than the retention, by timestampMillis, in chunks', async (ctx) => {
    // A catalog of its own: the other tests' points are from 1970.
    const own = await testApp();
    ctx.after(() => own.app.close());
    const urn = datasetUrn('ts.life.retention');
    const now = Date.UTC(2026, 0, 31);
    const day = 86_400_000;
    const points = Array.from({ length: PRUNE_CHUNK + 10 }, (_, i) => ({
      urn,
      entityType: 'dataset',
      aspect: 'datasetProfile',
      timestampMillis: now - 40 * day + i,
      key: '',
      value: profile(now - 40 * day + i, i),
      systemMetadata: { lastObserved: now },
      written: { time: now, actor: 'urn:li:corpuser:test' },
    }));
    await own.services.store.commit({ writes: [], events: [], points });
    await own.call(emitProfile(urn, profile(now - day, 1)));
    const logged: number[] = [];
    const retention = new TimeseriesRetention(own.services.store, own.services.registry, 30 * day, { info: (o) => logged.push((o as { pruned: number }).pruned), error: () => {} });
    assert.equal(await retention.prune(now), PRUNE_CHUNK + 10);
    assert.deepEqual(logged, [PRUNE_CHUNK + 10]);
    const left = await own.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile' }));
    assert.deepEqual(pointValues(left.body), [profile(now - day, 1)]);
    assert.equal(await retention.prune(now), 0, 'nothing more to prune');
  });

  it('re-evaluates metadata tests that read a timeseries aspect when a point arrives', async () => {
    const test = await defineTest(t, 'profiled', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProfile.rowCount', operator: 'greater_than', values: ['100'] }] });
    await t.services.scheduler.idle();
    const urn = datasetUrn('ts.life.metatests');
    await t.call(emitProfile(urn, profile(1, 500)));
    await t.services.scheduler.idle();
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [test], failing: [] });
    await t.call(emitProfile(urn, profile(2, 5)));
    await t.services.scheduler.idle();
    assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [], failing: [test] });
  });

  it('says it keeps ingestion checkpoints in /config', async () => {
    const res = await t.call({ method: 'GET', url: '/config' });
    assert.equal(res.body.statefulIngestionCapable, true);
  });

  it('round-trips a stateful ingestion checkpoint as DatahubIngestionCheckpointingProvider commits and reads it', async () => {
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(datahub,mysql_prod,prod),common_ingest_provider)';
    const checkpoint = (pipelineName: string, timestampMillis: number, payload: string) => ({
      timestampMillis,
      pipelineName,
      platformInstanceId: '',
      config: '',
      state: { formatVersion: '1.0', serde: 'base85-bz2-json', payload },
      runId: `run-${timestampMillis}`,
    });
    // commit(): the job soft-deleted (kept out of search), then the checkpoint.
    const emit = (aspectName: string, value: unknown) => t.call(pythonEmit({ entityType: 'dataJob', entityUrn: job, changeType: 'UPSERT', aspectName, aspect: value }));
    assert.equal((await emit('status', { removed: true })).status, 200);
    assert.equal((await emit('datahubIngestionCheckpoint', checkpoint('mysql_prod', 1_000, 'first'))).status, 200);
    assert.equal((await emit('datahubIngestionCheckpoint', checkpoint('mysql_prod', 2_000, 'second'))).status, 200);
    assert.equal((await emit('datahubIngestionCheckpoint', checkpoint('other_pipeline', 3_000, 'other'))).status, 200);
    // get_latest_timeseries_value, as today's client sends it (limit 1, values) and as older ones did (latestValue, value).
    const requests = [
      { urn: job, entity: 'dataJob', aspect: 'datahubIngestionCheckpoint', limit: 1, filter: { or: [{ and: [{ field: 'pipelineName', values: ['mysql_prod'], condition: 'EQUAL' }] }] } },
      { urn: job, entity: 'dataJob', aspect: 'datahubIngestionCheckpoint', latestValue: true, filter: { or: [{ and: [{ field: 'pipelineName', value: 'mysql_prod', condition: 'EQUAL' }] }] } },
    ];
    for (const body of requests) {
      const res = await t.call({ method: 'POST', url: '/aspects?action=getTimeseriesAspectValues', headers: pythonHeaders(), payload: pyDumps(body) });
      assert.equal(res.status, 200, res.raw);
      assert.equal(res.body.value.values.length, 1);
      assert.deepEqual(JSON.parse(res.body.value.values[0].aspect.value), checkpoint('mysql_prod', 2_000, 'second'));
    }
    const none = await t.call(timeseriesValues({ ...requests[0], filter: { or: [{ and: [{ field: 'pipelineName', values: ['never_ran'], condition: 'EQUAL' }] }] } }));
    assert.deepEqual(none.body.value.values, []);
  });
});
