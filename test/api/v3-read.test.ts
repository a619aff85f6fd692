import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { V3, v3Url } from './v3-fixtures.js';

describe('GET and HEAD on /openapi/v3/entity', () => {
  let t: TestApp;
  const urn = datasetUrn('v3read/with/slashes.t');
  const keyAndDefaults = {
    datasetKey: { value: { platform: 'urn:li:dataPlatform:hive', name: 'v3read/with/slashes.t', origin: 'PROD' } },
    browsePathsV2: { value: { path: [{ id: 'Default' }] } },
    dataPlatformInstance: { value: { platform: 'urn:li:dataPlatform:hive' } },
  };
  before(async () => {
    t = await testApp();
    const write = async (aspect: string, value: unknown) => {
      const res = await t.call({ method: 'POST', url: `${v3Url('dataset', urn, aspect)}?createIfNotExists=false`, payload: { value } });
      assert.equal(res.status, 200, res.raw);
    };
    await write('globalTags', { tags: [{ tag: 'urn:li:tag:one' }] });
    await write('globalTags', { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] });
    await write('status', { removed: false });
  });
  after(() => t.app.close());

  it('answers the entity with its aspects at the top level, {urn, <aspect>: {value}}', async () => {
    const res = await t.call({ method: 'GET', url: v3Url('dataset', urn) });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      urn,
      ...keyAndDefaults,
      globalTags: { value: { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] } },
      status: { value: { removed: false } },
    });
  });

  it('ignores the path\'s entity name, as DataHub does: /generic/{urn} and /chart/{dataset urn} read the dataset', async () => {
    for (const type of ['generic', 'chart', 'nonsense']) {
      const res = await t.call({ method: 'GET', url: `${v3Url(type, urn)}?aspects=status` });
      assert.equal(res.status, 200, type);
      assert.deepEqual(res.body, { urn, status: { value: { removed: false } } }, type);
    }
  });

  it('returns only the aspects asked for by aspects and aspectNames together, in any known spelling', async () => {
    const both = await t.call({ method: 'GET', url: `${v3Url('dataset', urn)}?aspects=status&aspectNames=globaltags` });
    assert.deepEqual(Object.keys(both.body).sort(), ['globalTags', 'status', 'urn']);
    const comma = await t.call({ method: 'GET', url: `${v3Url('dataset', urn)}?aspects=status,unknownAspect` });
    assert.deepEqual(Object.keys(comma.body).sort(), ['status', 'urn']);
    const unknownOnly = await t.call({ method: 'GET', url: `${v3Url('dataset', urn)}?aspects=unknownAspect` });
    assert.deepEqual(Object.keys(unknownOnly.body).sort(), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags', 'status', 'urn'], 'no known name: every aspect');
  });

  it('adds systemMetadata and auditStamp to every aspect with systemMetadata=true', async () => {
    const res = await t.call({ method: 'GET', url: `${v3Url('dataset', urn)}?aspects=globalTags&systemMetadata=true` });
    const { value, systemMetadata, auditStamp } = res.body.globalTags;
    assert.deepEqual(value, { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] });
    assert.equal(systemMetadata.version, '2');
    assert.deepEqual(systemMetadata.properties, { eventSource: 'OPENAPI' });
    assert.deepEqual(auditStamp, systemMetadata.aspectModified);
    assert.equal(auditStamp.actor, 'urn:li:corpuser:datahub');
    assert.deepEqual(Object.keys(res.body.globalTags).sort(), ['auditStamp', 'systemMetadata', 'value']);
  });

  it('answers 404 with Not-Found-Reason: ENTITY for an unknown entity', async () => {
    const missing = datasetUrn('v3read.missing');
    const res = await t.call({ method: 'GET', url: v3Url('dataset', missing) });
    assert.equal(res.status, 404);
    assert.equal(res.headers['not-found-reason'], 'ENTITY');
    assert.deepEqual(res.body, { error: 'Not Found', message: `Entity ${missing} not found` });
  });

  it('answers 404 for an entity that has none of the aspects asked for, as DataHub leaves it out', async () => {
    const res = await t.call({ method: 'GET', url: `${v3Url('dataset', urn)}?aspects=ownership` });
    assert.equal(res.status, 404);
    assert.equal(res.headers['not-found-reason'], 'ENTITY');
  });

  it('answers 400 Invalid urn! for a URN that does not parse, names an unknown type or has a bad key', async () => {
    for (const bad of ['notaurn', 'urn:li:dataset:(x)', 'urn:li:dataset:(urn:li:dataPlatform:hive,a,NOPE)', 'urn:li:notAType:(a,b)']) {
      for (const url of [v3Url('dataset', bad), v3Url('dataset', bad, 'status')]) {
        const res = await t.call({ method: 'GET', url });
        assert.equal(res.status, 400, url);
        assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` }, url);
      }
      for (const url of [v3Url('dataset', bad), v3Url('dataset', bad, 'status')]) {
        assert.equal((await t.call({ method: 'HEAD', url })).status, 400, url);
      }
    }
  });

  it('reads one aspect as {value}, latest by default, an earlier one by version', async () => {
    const latest = await t.call({ method: 'GET', url: v3Url('dataset', urn, 'globaltags') });
    assert.equal(latest.status, 200);
    assert.deepEqual(latest.body, { value: { tags: [{ tag: 'urn:li:tag:one' }, { tag: 'urn:li:tag:two' }] } });
    const first = await t.call({ method: 'GET', url: `${v3Url('dataset', urn, 'globalTags')}?version=1` });
    assert.deepEqual(first.body, { value: { tags: [{ tag: 'urn:li:tag:one' }] } });
    const second = await t.call({ method: 'GET', url: `${v3Url('dataset', urn, 'globalTags')}?version=2&systemMetadata=true` });
    assert.deepEqual(second.body.value, latest.body.value);
    assert.equal(second.body.systemMetadata.version, '2');
    assert.deepEqual(second.body.auditStamp, second.body.systemMetadata.aspectModified);
  });

  it('answers 404 with Not-Found-Reason for a missing aspect, version or unknown aspect name', async () => {
    const cases: Array<[string, string]> = [
      [v3Url('dataset', urn, 'ownership'), 'ENTITY'],
      [`${v3Url('dataset', urn, 'globalTags')}?version=3`, 'ENTITY'],
      [v3Url('dataset', urn, 'nonsense'), 'ASPECT'],
    ];
    for (const [url, reason] of cases) {
      const res = await t.call({ method: 'GET', url });
      assert.equal(res.status, 404, url);
      assert.equal(res.headers['not-found-reason'], reason, url);
      assert.equal(res.body.error, 'Not Found');
    }
  });

  it('answers 400 for a negative version', async () => {
    const res = await t.call({ method: 'GET', url: `${v3Url('dataset', urn, 'globalTags')}?version=-1` });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation Error');
  });

  it('HEAD answers 204 for an entity and an aspect that exist, 404 otherwise, without a body', async () => {
    const cases: Array<[string, number]> = [
      [v3Url('dataset', urn), 204],
      [v3Url('generic', urn), 204],
      [v3Url('dataset', urn, 'status'), 204],
      [v3Url('dataset', urn, 'ownership'), 404],
      [v3Url('dataset', urn, 'nonsense'), 404],
      [v3Url('dataset', datasetUrn('v3read.missing')), 404],
      [v3Url('dataset', datasetUrn('v3read.missing'), 'status'), 404],
    ];
    for (const [url, status] of cases) {
      const res = await t.call({ method: 'HEAD', url });
      assert.equal(res.status, status, url);
      assert.equal(res.raw, '');
    }
  });

  it('HEAD answers 404 for a soft-deleted entity (status.removed), as DataHub does; GET still reads it', async () => {
    const removed = datasetUrn('v3read.removed');
    await t.call({ method: 'POST', url: v3Url('dataset', removed, 'status'), payload: { value: { removed: true } } });
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', removed) })).status, 404);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', removed, 'status') })).status, 404);
    const res = await t.call({ method: 'GET', url: v3Url('dataset', removed, 'status') });
    assert.deepEqual(res.body, { value: { removed: true } });
    await t.call({ method: 'POST', url: `${v3Url('dataset', removed, 'status')}?createIfNotExists=false`, payload: { value: { removed: false } } });
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', removed) })).status, 204);
  });

  it('HEAD counts an entity of a type without a status aspect (domain) as live when it exists', async () => {
    const domain = 'urn:li:domain:v3read';
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('domain', domain) })).status, 404);
    assert.equal((await t.call({ method: 'POST', url: v3Url('domain', domain, 'domainProperties'), payload: { value: { name: 'v3read' } } })).status, 200);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('domain', domain) })).status, 204);
  });

  it('reads a URN with raw :(), characters in the path, as the Python emitter sends it', async () => {
    const res = await t.call({ method: 'GET', url: `${V3}/dataset/${datasetUrn('v3read.raw')}` });
    assert.equal(res.status, 404);
    const written = await t.call({ method: 'POST', url: `${V3}/dataset/${datasetUrn('v3read.raw')}/status`, payload: { value: { removed: false } } });
    assert.equal(written.status, 200);
    const read = await t.call({ method: 'GET', url: `${V3}/dataset/${datasetUrn('v3read.raw')}/status` });
    assert.deepEqual(read.body, { value: { removed: false } });
  });
});
