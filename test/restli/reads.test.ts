import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { pyQuote, pythonEmit, pythonGetAspect, pythonGetEntity, restliError } from './clients.js';

/** `GET /aspects/{urn}` (VersionedAspect) and `GET /entitiesV2/{urn}` (EntityResponse) in detail. */

describe('Rest.li reads', () => {
  let t: TestApp;
  const urn = datasetUrn('restli.read.one');

  before(async () => {
    t = await testApp();
    for (const [aspectName, value] of [
      ['status', { removed: false }],
      ['status', { removed: true }],
      ['globalTags', { tags: [{ tag: 'urn:li:tag:a' }] }],
    ] as const) {
      const res = await t.call(pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: value }));
      assert.equal(res.status, 200, res.raw);
    }
  });
  after(() => t.app.close());

  describe('GET /aspects/{urn}', () => {
    it('answers the latest as version 0, earlier ones from 1 (the oldest)', async () => {
      assert.deepEqual((await t.call(pythonGetAspect(urn, 'status'))).body, { version: 0, aspect: { 'com.linkedin.common.Status': { removed: true } } });
      assert.deepEqual((await t.call(pythonGetAspect(urn, 'status', 1))).body, { version: 1, aspect: { 'com.linkedin.common.Status': { removed: false } } });
      assert.deepEqual((await t.call(pythonGetAspect(urn, 'status', 2))).body, { version: 2, aspect: { 'com.linkedin.common.Status': { removed: true } } });
    });

    it('takes the all-lowercase spelling of an aspect name, as v2 does', async () => {
      const res = await t.call(pythonGetAspect(urn, 'globaltags'));
      assert.deepEqual(res.body, { version: 0, aspect: { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:a' }] } } });
    });

    it('answers 404 in Rest.li\'s shape for an aspect the entity does not have, or a version it never had', async () => {
      const none = await t.call(pythonGetAspect(urn, 'ownership'));
      assert.equal(none.status, 404);
      assert.deepEqual(none.body, restliError(404, `Aspect ownership of ${urn} not found`));
      assert.equal(none.headers['x-restli-error-response'], 'true');
      assert.equal(none.headers['not-found-reason'], 'ASPECT');
      const version = await t.call(pythonGetAspect(urn, 'status', 9));
      assert.deepEqual(version.body, restliError(404, `Aspect status of ${urn} not found at version 9`));
      const entity = await t.call(pythonGetAspect(datasetUrn('restli.read.none'), 'status'));
      assert.equal(entity.status, 404);
    });

    it('answers 404 for an aspect name the entity type does not know', async () => {
      const res = await t.call(pythonGetAspect(urn, 'chartInfo'));
      assert.deepEqual(res.body, restliError(404, 'Unknown aspect chartInfo for entity type dataset'));
    });

    it('answers 400 for no aspect name, a negative version, or a URN that does not parse', async () => {
      const noName = await t.call({ method: 'GET', url: `/aspects/${pyQuote(urn)}` });
      assert.deepEqual(noName.body, restliError(400, 'aspect is required: the name of the aspect to read'));
      const negative = await t.call(pythonGetAspect(urn, 'status', -1));
      assert.deepEqual(negative.body, restliError(400, 'querystring/version must be >= 0'));
      const badUrn = await t.call(pythonGetAspect('urn:li:nope', 'status'));
      assert.deepEqual(badUrn.body, restliError(400, 'Invalid urn!: urn:li:nope'));
    });
  });

  describe('GET /entitiesV2/{urn}', () => {
    it('answers every aspect without a projection, each enveloped', async () => {
      const res = await t.call(pythonGetEntity(urn));
      assert.equal(res.status, 200, res.raw);
      assert.deepEqual(Object.keys(res.body.aspects).sort(), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags', 'status']);
      const status = res.body.aspects.status;
      assert.deepEqual({ ...status, created: undefined, systemMetadata: undefined }, { name: 'status', type: 'VERSIONED', version: 0, value: { removed: true }, created: undefined, systemMetadata: undefined });
      assert.equal(status.systemMetadata.version, '2');
      assert.deepEqual(status.created, status.systemMetadata.aspectModified);
    });

    it('projects with Rest.li 2.0 List(…) and with repeated parameters (1.0), the key always included', async () => {
      const v2 = await t.call(pythonGetEntity(urn, ['globalTags']));
      assert.deepEqual(Object.keys(v2.body.aspects).sort(), ['datasetKey', 'globalTags']);
      const v1 = await t.call({ method: 'GET', url: `/entitiesV2/${pyQuote(urn)}?aspects=status&aspects=globalTags` });
      assert.deepEqual(Object.keys(v1.body.aspects).sort(), ['datasetKey', 'globalTags', 'status']);
    });

    it('skips aspect names it does not know, and answers just the key for List()', async () => {
      const unknown = await t.call(pythonGetEntity(urn, ['nope', 'status']));
      assert.deepEqual(Object.keys(unknown.body.aspects).sort(), ['datasetKey', 'status']);
      const empty = await t.call({ method: 'GET', url: `/entitiesV2/${pyQuote(urn)}?aspects=List()` });
      assert.deepEqual(Object.keys(empty.body.aspects), ['datasetKey']);
    });

    it('answers an entity that does not exist with its key alone, as DataHub does', async () => {
      const missing = datasetUrn('restli.read.missing', 'kafka', 'DEV');
      const before = Date.now();
      const res = await t.call(pythonGetEntity(missing, ['status']));
      assert.equal(res.status, 200);
      const key = res.body.aspects.datasetKey;
      assert.deepEqual(res.body, {
        entityName: 'dataset',
        urn: missing,
        aspects: {
          datasetKey: {
            name: 'datasetKey',
            type: 'VERSIONED',
            version: 0,
            value: { platform: 'urn:li:dataPlatform:kafka', name: 'restli.read.missing', origin: 'DEV' },
            created: { time: key.created.time, actor: 'urn:li:corpuser:__datahub_system' },
          },
        },
      });
      assert.ok(key.created.time >= before);
    });

    it('answers 400 in Rest.li\'s shape for a URN that does not parse or names an unknown type', async () => {
      const res = await t.call(pythonGetEntity('urn:li:foobar:x'));
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, restliError(400, 'Invalid urn!: urn:li:foobar:x'));
    });
  });
});
