import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

describe('GET and HEAD on /openapi/v2/entity', () => {
  let t: TestApp;
  const urn = datasetUrn('read/with/slashes.t');
  before(async () => {
    t = await testApp();
    const write = async (aspect: string, value: unknown) => {
      const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/${aspect}`, payload: value as object });
      assert.equal(res.status, 200);
    };
    await write('globalTags', { tags: [{ tag: 'urn:li:tag:one' }] });
    await write('globalTags', { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] });
    await write('status', { removed: false });
  });
  after(() => t.app.close());

  it('reads an entity whose name holds %2F-encoded slashes', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}` });
    assert.equal(res.status, 200);
    assert.equal(res.body.urn, urn);
    assert.deepEqual(Object.keys(res.body.aspects).sort(), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags', 'status']);
    assert.equal(res.body.aspects.datasetKey.value.name, 'read/with/slashes.t');
  });

  it('accepts the URN with raw :(), characters in the path', async () => {
    const raw = datasetUrn('read.raw');
    await t.call({ method: 'POST', url: `${V2}/dataset/${enc(raw)}/status`, payload: { removed: false } });
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${raw}/status` });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { value: { removed: false } });
  });

  it('returns only the aspects asked for, repeated or comma-separated, in any known spelling', async () => {
    const repeated = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}?aspects=status&aspects=globaltags` });
    assert.deepEqual(Object.keys(repeated.body.aspects).sort(), ['globalTags', 'status']);
    const comma = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}?aspects=status,globalTags,unknownAspect` });
    assert.deepEqual(Object.keys(comma.body.aspects).sort(), ['globalTags', 'status']);
    const legacy = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}?aspectNames=status` });
    assert.deepEqual(Object.keys(legacy.body.aspects), ['status']);
  });

  it('adds systemMetadata to every aspect with systemMetadata=true', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}?aspects=globalTags&systemMetadata=true` });
    const sm = res.body.aspects.globalTags.systemMetadata;
    assert.equal(sm.version, '2');
    assert.deepEqual(sm.properties, { eventSource: 'OPENAPI' });
    assert.equal(sm.aspectCreated.actor, 'urn:li:corpuser:datahub');
    assert.ok(sm.aspectModified.time >= sm.aspectCreated.time);
  });

  it('answers 404 with Not-Found-Reason for an unknown entity', async () => {
    const missing = datasetUrn('read.missing');
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(missing)}` });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Not Found', message: `Entity ${missing} not found` });
    assert.equal(res.headers['not-found-reason'], 'ENTITY');
  });

  it('answers 400 for a malformed URN on read', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc('urn:li:dataset:(a,b')}` });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Invalid urn!: urn:li:dataset:(a,b' });
  });

  it('answers 400 Invalid urn! for a URN whose key is invalid, on every route (it was 404 on reads)', async () => {
    for (const bad of ['urn:li:dataset:(x)', 'urn:li:dataset:(urn:li:dataPlatform:hive,a,NOPE)']) {
      for (const url of [`${V2}/dataset/${enc(bad)}`, `${V2}/dataset/${enc(bad)}/status`]) {
        for (const method of ['GET', 'DELETE'] as const) {
          const res = await t.call({ method, url });
          assert.equal(res.status, 400, `${method} ${url}`);
          assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` });
        }
        assert.equal((await t.call({ method: 'HEAD', url })).status, 400, url);
      }
    }
  });

  it('answers 400 when the path\'s entity type is not the URN\'s, on every route, instead of serving the dataset', async () => {
    for (const path of [`${V2}/tag/${enc(urn)}`, `${V2}/tag/${enc(urn)}/status`]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.call({ method, url: path });
        assert.equal(res.status, 400, `${method} ${path}`);
        assert.deepEqual(res.body, { error: 'Validation Error', message: `The URN ${urn} is not of entity type tag` });
      }
      assert.equal((await t.call({ method: 'HEAD', url: path })).status, 400, path);
    }
    const unknown = await t.call({ method: 'GET', url: `${V2}/nonsense/${enc(urn)}` });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 'Validation Error', message: 'Unknown entity type nonsense' }]);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/DATASET/${enc(urn)}/status` })).status, 200, 'the type in any case');
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/status` })).status, 204, 'nothing was deleted');
  });

  it('reads one aspect as {value}', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags` });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { value: { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] } });
  });

  it('reads history: version=0 and the systemMetadata version are the latest, version=1 the first write', async () => {
    const get = (v: number) => t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags?version=${v}` });
    const latest = { value: { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] } };
    assert.deepEqual((await get(0)).body, latest);
    assert.deepEqual((await get(2)).body, latest);
    assert.deepEqual((await get(1)).body, { value: { tags: [{ tag: 'urn:li:tag:one' }] } });
    const none = await get(3);
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { error: 'Not Found', message: `Aspect globalTags of ${urn} not found at version 3` });
  });

  it('finds version N while a concurrent write moves it from latest into the history', async () => {
    const raced = datasetUrn('read.version.race');
    const url = `${V2}/dataset/${enc(raced)}/status`;
    assert.equal((await t.call({ method: 'POST', url, payload: { removed: false } })).status, 200);
    const store = t.services.store as { getVersion: (...args: unknown[]) => Promise<unknown> };
    const getVersion = store.getVersion;
    let raceOnce = true;
    // The read's first lookup is answered, then another request writes version 2 before the read goes on.
    store.getVersion = async (...args: unknown[]) => {
      const found = await getVersion.apply(store, args);
      if (raceOnce) {
        raceOnce = false;
        assert.equal((await t.call({ method: 'POST', url, payload: { removed: true } })).status, 200);
      }
      return found;
    };
    try {
      const res = await t.call({ method: 'GET', url: `${url}?version=1` });
      assert.deepEqual([res.status, res.body], [200, { value: { removed: false } }]);
    } finally {
      store.getVersion = getVersion;
    }
    const second = await t.call({ method: 'GET', url: `${url}?version=2` });
    assert.deepEqual([second.status, second.body], [200, { value: { removed: true } }]);
  });

  it('answers 400 for a negative or non-numeric version', async () => {
    for (const v of ['-1', 'abc']) {
      const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags?version=${v}` });
      assert.equal(res.status, 400, v);
      assert.equal(res.body.error, 'Validation Error');
    }
  });

  it('adds systemMetadata to a single aspect with systemMetadata=true', async () => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags?version=1&systemMetadata=true` });
    assert.equal(res.body.systemMetadata.version, '1');
  });

  it('answers 404 for an absent aspect and for an aspect the type does not have', async () => {
    const absent = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/ownership` });
    assert.equal(absent.status, 404);
    assert.deepEqual(absent.body, { error: 'Not Found', message: `Aspect ownership of ${urn} not found` });
    const unknown = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/propertyDefinition` });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: 'Not Found', message: 'Unknown aspect propertyDefinition for entity type dataset' });
  });

  it('HEAD on an entity: 204 when it exists, 404 when not, 400 for a bad URN', async () => {
    const yes = await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` });
    assert.equal(yes.status, 204);
    assert.equal(yes.raw, '');
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(datasetUrn('nope'))}` })).status, 404);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc('urn:li:dataset:(')}` })).status, 400);
  });

  it('HEAD on an aspect: 204 when present, 404 when absent or unknown', async () => {
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/status` })).status, 204);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/ownership` })).status, 404);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/nonsense` })).status, 404);
  });

  it('HEAD answers 404 for a soft-deleted entity (status.removed) and its aspects, as DataHub does; GET still reads them', async () => {
    const removed = datasetUrn('v2read.removed');
    const write = (removedFlag: boolean) => t.call({ method: 'POST', url: `${V2}/dataset/${enc(removed)}/status`, payload: { removed: removedFlag } });
    assert.equal((await write(true)).status, 200);
    for (const url of [`${V2}/dataset/${enc(removed)}`, `${V2}/dataset/${enc(removed)}/status`, `${V2}/dataset/${enc(removed)}/datasetKey`]) {
      const head = await t.call({ method: 'HEAD', url });
      assert.equal(head.status, 404, url);
      assert.equal(head.raw, '');
    }
    const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(removed)}/status` });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { value: { removed: true } });
    assert.equal((await write(false)).status, 200);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(removed)}` })).status, 204);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(removed)}/status` })).status, 204);
  });

  it('reads bootstrapped entities: data types, entity types and platforms', async () => {
    const dataType = await t.call({ method: 'GET', url: `${V2}/dataType/${enc('urn:li:dataType:datahub.number')}/dataTypeInfo` });
    assert.equal(dataType.body.value.qualifiedName, 'datahub.number');
    const entityType = await t.call({ method: 'GET', url: `${V2}/entityType/${enc('urn:li:entityType:datahub.dataset')}/entityTypeInfo` });
    assert.equal(entityType.body.value.qualifiedName, 'datahub.dataset');
    const platform = await t.call({ method: 'GET', url: `${V2}/dataPlatform/${enc('urn:li:dataPlatform:snowflake')}` });
    assert.equal(platform.body.aspects.dataPlatformInfo.value.name, 'snowflake');
    assert.deepEqual(platform.body.aspects.dataPlatformKey.value, { platformName: 'snowflake' });
  });
});
