import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pyDumps, pythonEmit, pythonGetAspect, pythonHardDelete, pythonHeaders, pythonSystemMetadata, restliError } from './clients.js';

/** `POST /entities?action=delete` (hard delete) and `?action=ingest` (a legacy MetadataChangeEvent). */

describe('Rest.li entity actions', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const events = async () => t.services.store.readEvents(0, 100_000);

  /** emit_mce: `{"entity": {"value": {<snapshot class>: snapshot}}, "systemMetadata": …}`. */
  const emitMce = (snapshotClass: string, urn: string, aspects: unknown[], systemMetadata = pythonSystemMetadata('mce-run')): InjectOptions => ({
    method: 'POST',
    url: '/entities?action=ingest',
    headers: pythonHeaders(),
    payload: pyDumps({ entity: { value: { [`com.linkedin.metadata.snapshot.${snapshotClass}`]: { urn, aspects } } }, systemMetadata }),
  });

  describe('ingest (MetadataChangeEvent)', () => {
    it('upserts every aspect of the snapshot, keyed by Pegasus record name, in one commit', async () => {
      const urn = datasetUrn('restli.mce.ok');
      const res = await t.call(
        emitMce('DatasetSnapshot', urn, [
          { 'com.linkedin.dataset.DatasetProperties': { description: 'from an MCE', customProperties: {} } },
          { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:legacy' }] } },
        ]),
      );
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, { value: 'success' });
      const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/datasetProperties?systemMetadata=true` });
      assert.deepEqual(read.body.value, { description: 'from an MCE', customProperties: {} });
      assert.equal(read.body.systemMetadata.runId, 'mce-run');
      assert.deepEqual((await t.call(pythonGetAspect(urn, 'globalTags'))).body.aspect, { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:legacy' }] } });
    });

    it('takes DataHub\'s snapshot record name for the type (MLModelSnapshot holds mlModels)', async () => {
      const urn = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)';
      const res = await t.call(emitMce('MLModelSnapshot', urn, [{ 'com.linkedin.common.Status': { removed: false } }]));
      assert.equal(res.status, 200, res.raw);
    });

    it('refuses a snapshot of another entity type, an aspect not of the type, or a bad value, writing nothing', async () => {
      const urn = datasetUrn('restli.mce.bad');
      const before = (await events()).length;
      const cases: Array<[InjectOptions, string]> = [
        [emitMce('ChartSnapshot', urn, [{ 'com.linkedin.common.Status': { removed: false } }]), `com.linkedin.metadata.snapshot.ChartSnapshot cannot hold ${urn}, an entity of type dataset`],
        [
          emitMce('DatasetSnapshot', urn, [{ 'com.linkedin.common.Status': { removed: false } }, { 'com.linkedin.chart.ChartInfo': { title: 'x' } }]),
          'entity.value.com.linkedin.metadata.snapshot.DatasetSnapshot.aspects[1]: com.linkedin.chart.ChartInfo is not an aspect of entity type dataset',
        ],
        [
          emitMce('DatasetSnapshot', urn, [{ 'com.linkedin.common.Status': { removed: false } }, { 'com.linkedin.common.GlobalTags': { tags: 'none' } }]),
          'Aspect globalTags is invalid: field tags must be array',
        ],
        [emitMce('DatasetSnapshot', urn, [{ a: 1, b: 2 }]), 'entity.value.com.linkedin.metadata.snapshot.DatasetSnapshot.aspects[0] must be {"<aspect record name>": <aspect value>}'],
        [{ method: 'POST', url: '/entities?action=ingest', headers: pythonHeaders(), payload: '{}' }, 'entity must be {"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": {"urn": …, "aspects": […]}}}'],
      ];
      for (const [request, message] of cases) {
        const res = await t.call(request);
        assert.equal(res.status, 400, res.raw);
        assert.deepEqual(res.body, restliError(400, message));
      }
      assert.equal((await events()).length, before, 'nothing written');
    });
  });

  describe('delete', () => {
    it('removes the entity with every aspect and its history, answering the rows removed', async () => {
      const urn = datasetUrn('restli.delete.ok');
      for (const removed of [false, true]) {
        assert.equal((await t.call(pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { removed } }))).status, 200);
      }
      const res = await t.call(pythonHardDelete(urn));
      assert.equal(res.status, 200, res.raw);
      // datasetKey, browsePathsV2, dataPlatformInstance, and status twice.
      assert.deepEqual(res.body, { value: { urn, rows: 5, timeseriesRows: 0 } });
      assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 404);
      assert.deepEqual(
        (await events()).filter((e) => e.urn === urn && e.changeType === 'DELETE').map((e) => e.aspect).sort(),
        ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'status'],
      );
    });

    it('answers rows 0 for an entity that does not exist', async () => {
      const urn = datasetUrn('restli.delete.none');
      assert.deepEqual((await t.call(pythonHardDelete(urn))).body, { value: { urn, rows: 0, timeseriesRows: 0 } });
    });

    it('refuses a live structured property with 409, as v2 does, and an aspect not of its type or no URN with 400', async () => {
      const property = 'urn:li:structuredProperty:restli.delete.live';
      const defined = await t.call(
        pythonEmit({
          entityType: 'structuredProperty',
          entityUrn: property,
          changeType: 'UPSERT',
          aspectName: 'propertyDefinition',
          aspect: { qualifiedName: 'restli.delete.live', valueType: 'urn:li:dataType:datahub.string', entityTypes: ['urn:li:entityType:datahub.dataset'] },
        }),
      );
      assert.equal(defined.status, 200, defined.raw);
      const live = await t.call(pythonHardDelete(property));
      assert.equal(live.status, 409);
      assert.deepEqual(live.body, restliError(409, `Cannot hard delete live Structured Property ${property}: soft delete it first (status {"removed":true})`));
      const timeseries = await t.call({ method: 'POST', url: '/entities?action=delete', headers: pythonHeaders(), payload: pyDumps({ urn: property, aspectName: 'datasetProfile' }) });
      // A structured property has no datasetProfile (timeseries deletes: test/timeseries/deletes.test.ts).
      assert.deepEqual(timeseries.body, restliError(400, 'Unknown aspect datasetProfile for entity type structuredProperty'));
      const noUrn = await t.call({ method: 'POST', url: '/entities?action=delete', headers: pythonHeaders(), payload: '{}' });
      assert.deepEqual(noUrn.body, restliError(400, 'urn is required: the URN of the entity to delete'));
    });
  });
});
