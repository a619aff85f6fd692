import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { datasetUrn, enc, testApp, type TestApp } from '../helpers.js';
import { parseUrn } from '../../src/urn/urn.js';
import { synthesize, urnOf } from '../registry/synthesize.js';
import { pyDumps, pythonHeaders, restliError } from './clients.js';

/** DataHub's snapshot records by name (registry data), batchIngest, and the snapshot read `GET /entities/{urn}`. */

const SNAPSHOT = 'com.linkedin.metadata.snapshot.';

describe('Rest.li snapshots', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const events = async () => (await t.services.store.readEvents(0, 100_000)).length;
  const entity = (snapshotClass: string, urn: string, aspects: unknown[]) => ({ value: { [`${SNAPSHOT}${snapshotClass}`]: { urn, aspects } } });
  const ingest = (body: unknown): InjectOptions => ({ method: 'POST', url: '/entities?action=ingest', headers: pythonHeaders(), payload: pyDumps(body) });
  const batchIngest = (body: unknown): InjectOptions => ({ method: 'POST', url: '/entities?action=batchIngest', headers: pythonHeaders(), payload: pyDumps(body) });
  const read = (urn: string, query = '') => t.call({ method: 'GET', url: `/entities/${enc(urn)}${query}`, headers: pythonHeaders() });

  it("knows DataHub's 21 snapshot records, names that do not follow the entity type by case alone included", () => {
    const { registry } = t.services;
    assert.equal(registry.snapshots().length, 21);
    const holds = (name: string) => registry.snapshot(`${SNAPSHOT}${name}`)?.entity.name;
    assert.equal(holds('DataPlatformSnapshot'), 'dataPlatform');
    assert.equal(holds('MLPrimaryKeySnapshot'), 'mlPrimaryKey');
    assert.equal(holds('DataHubPolicySnapshot'), 'dataHubPolicy');
    assert.equal(holds('CorpUserSnapshot'), 'corpuser');
    assert.equal(holds('MLModelDeploymentSnapshot'), 'mlModelDeployment');
    assert.equal(holds('StructuredPropertySnapshot'), undefined);
  });

  it('ingests every snapshot type, the values reading back in the snapshot as written, key first', async () => {
    const { registry } = t.services;
    for (const spec of registry.snapshots()) {
      const urn = urnOf(registry, spec.entity.name);
      const key = { [spec.entity.keyAspect.pegasusClass!]: registry.keyOf(parseUrn(urn), spec.entity) };
      const others = spec.aspects.slice(1).map((a) => ({ [a.pegasusClass!]: synthesize(registry, a.schema, 'minimal') }));
      const res = await t.call(ingest({ entity: entity(spec.name.slice(SNAPSHOT.length), urn, [key, ...others]), systemMetadata: { runId: 'snapshots' } }));
      assert.equal(res.status, 200, `${spec.name}: ${res.raw}`);
      const back = await read(urn);
      assert.equal(back.status, 200, back.raw);
      const aspects = back.body.value[spec.name].aspects as Array<Record<string, unknown>>;
      assert.deepEqual(Object.keys(back.body.value), [spec.name]);
      assert.equal(back.body.value[spec.name].urn, urn);
      // Written values come back as written; what the entity got by default (browse paths, platform instance) besides.
      const written = new Set([key, ...others].map((a) => Object.keys(a)[0]));
      assert.deepEqual(aspects.filter((a) => written.has(Object.keys(a)[0])), [key, ...others], spec.name);
    }
  });

  it("refuses a record name that is not one of DataHub's snapshots, naming those there are", async () => {
    const before = await events();
    const res = await t.call(ingest({ entity: entity('StructuredPropertySnapshot', 'urn:li:structuredProperty:x', []) }));
    assert.equal(res.status, 400);
    const names = t.services.registry.snapshots().map((s) => s.name.slice(SNAPSHOT.length)).join(', ');
    assert.deepEqual(res.body, restliError(400, `entity.value: ${SNAPSHOT}StructuredPropertySnapshot is not one of DataHub's snapshot records (${names})`));
    assert.ok(names.startsWith('ChartSnapshot, CorpGroupSnapshot, '), names);
    assert.equal(await events(), before);
  });

  it('refuses a URN whose key breaks its key aspect, as every write path does', async () => {
    const urn = 'urn:li:mlPrimaryKey:(features_only_one_part)';
    const res = await t.call(ingest({ entity: entity('MLPrimaryKeySnapshot', urn, [{ 'com.linkedin.common.Status': { removed: false } }]) }));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, restliError(400, `Invalid urn!: ${urn}`));
  });

  describe('batchIngest', () => {
    it('writes every entity of the list, each with the system metadata at its position', async () => {
      const a = datasetUrn('snapshots.batch.a');
      const tag = 'urn:li:tag:snapshots-batch';
      const before = await events();
      const res = await t.call(
        batchIngest({
          entities: [
            entity('DatasetSnapshot', a, [{ 'com.linkedin.common.Status': { removed: false } }, { 'com.linkedin.common.GlobalTags': { tags: [{ tag }] } }]),
            entity('TagSnapshot', tag, [{ 'com.linkedin.tag.TagProperties': { name: 'batch' } }]),
          ],
          systemMetadata: [{ runId: 'batch-a' }, { runId: 'batch-tag' }],
        }),
      );
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, { value: 'success' });
      const written = (await t.services.store.readEvents(0, 100_000)).slice(before);
      const changed = written.map((e) => `${e.urn} ${e.aspect}`);
      for (const one of [`${a} datasetKey`, `${a} globalTags`, `${a} status`, `${tag} tagKey`, `${tag} tagProperties`]) assert.ok(changed.includes(one), one);
      const tagAspect = await t.call({ method: 'GET', url: `/openapi/v2/entity/tag/${enc(tag)}/tagProperties?systemMetadata=true` });
      assert.equal(tagAspect.body.systemMetadata.runId, 'batch-tag');
      const dataset = await t.call({ method: 'GET', url: `/openapi/v2/entity/dataset/${enc(a)}/status?systemMetadata=true` });
      assert.equal(dataset.body.systemMetadata.runId, 'batch-a');
    });

    it('refuses the whole batch for one bad entity, naming it, and writes nothing', async () => {
      const good = entity('TagSnapshot', 'urn:li:tag:snapshots-refused', [{ 'com.linkedin.tag.TagProperties': { name: 'never' } }]);
      const at = `entities[1].value.${SNAPSHOT}DatasetSnapshot`;
      const urn = datasetUrn('snapshots.batch.bad');
      const cases: Array<[unknown, string]> = [
        [{ entities: [good, entity('DatasetSnapshot', urn, [{ 'com.linkedin.common.GlobalTags': { tags: 'none' } }])] }, `${at}.aspects[0]: Aspect globalTags is invalid: field tags must be array`],
        [{ entities: [good, entity('DatasetSnapshot', urn, [{ 'com.linkedin.chart.ChartInfo': { title: 'x' } }])] }, `${at}.aspects[0]: com.linkedin.chart.ChartInfo is not an aspect of entity type dataset`],
        [{ entities: [good, { value: {} }] }, 'entities[1] must be {"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": {"urn": …, "aspects": […]}}}'],
        [{ entities: [good, entity('ChartSnapshot', urn, [])] }, `${SNAPSHOT}ChartSnapshot cannot hold ${urn}, an entity of type dataset`],
        [{ entities: good }, 'entities must be a list of Entity ({"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": …}})'],
        [{ entities: [good], systemMetadata: { runId: 'x' } }, 'systemMetadata must be a list, one SystemMetadata per entity'],
      ];
      const before = await events();
      for (const [body, message] of cases) {
        const res = await t.call(batchIngest(body));
        assert.equal(res.status, 400, res.raw);
        assert.deepEqual(res.body, restliError(400, message));
      }
      assert.equal(await events(), before, 'nothing written');
      assert.equal((await read('urn:li:tag:snapshots-refused')).status, 404);
    });
  });

  describe('GET /entities/{urn}', () => {
    it('answers the aspects the snapshot union carries, in its order, the key made from the URN; others are left out', async () => {
      const urn = datasetUrn('snapshots.read');
      const props = { description: 'read as a snapshot', customProperties: {} };
      const write = await t.call({
        method: 'POST',
        url: '/openapi/v2/entity/dataset?async=false',
        payload: [{ urn, aspects: { datasetProperties: { value: props }, status: { value: { removed: false } }, subTypes: { value: { typeNames: ['Table'] } } } }],
      });
      assert.equal(write.status, 200, write.raw);
      const res = await read(urn);
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(res.body, {
        value: {
          [`${SNAPSHOT}DatasetSnapshot`]: {
            urn,
            aspects: [
              { 'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'snapshots.read', origin: 'PROD' } },
              { 'com.linkedin.dataset.DatasetProperties': props },
              { 'com.linkedin.common.Status': { removed: false } },
              // Aspects a new dataset gets by default (subTypes is no member of DatasetSnapshot's union).
              { 'com.linkedin.common.DataPlatformInstance': { platform: 'urn:li:dataPlatform:hive' } },
              { 'com.linkedin.common.BrowsePathsV2': { path: [{ id: 'Default' }] } },
            ],
          },
        },
      });
      const some = await read(urn, '?aspects=List(status)');
      assert.deepEqual(some.body.value[`${SNAPSHOT}DatasetSnapshot`].aspects, [
        { 'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'snapshots.read', origin: 'PROD' } },
        { 'com.linkedin.common.Status': { removed: false } },
      ]);
    });

    it('answers 404 for an entity that does not exist, 400 for a type without a snapshot record or a bad URN', async () => {
      const missing = await read(datasetUrn('snapshots.never'));
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, restliError(404, `Entity ${datasetUrn('snapshots.never')} not found`));
      const noSnapshot = await read('urn:li:structuredProperty:io.example.x');
      assert.equal(noSnapshot.status, 400);
      assert.deepEqual(noSnapshot.body, restliError(400, "Entity type structuredProperty has no snapshot record in DataHub's model: read urn:li:structuredProperty:io.example.x with /entitiesV2 instead"));
      const bad = await read('urn:li:dataset:(urn:li:dataPlatform:hive,t)');
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, restliError(400, 'Invalid urn!: urn:li:dataset:(urn:li:dataPlatform:hive,t)'));
    });
  });
});
