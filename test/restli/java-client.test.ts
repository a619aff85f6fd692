import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { javaEmit, javaGetEntity, javaHeaders, javaUrlEncode, pythonGetAspect, restliError, type Mcp } from './clients.js';

/**
 * DataHub's Java emitter (RestEmitter) and v2 client: `{"proposal": …}` without `async`, the
 * aspect as Pegasus bytes (one char per byte), URL-encoded URNs, `List(…)` reads.
 */

const ADMIN = 'urnb_restli-java-admin-0123456789abcdefghijklmnopq';

describe('requests as DataHub\'s Java client sends them', () => {
  let t: TestApp;
  before(async () => (t = await testApp({ auth: true, adminToken: ADMIN })));
  after(() => t.app.close());

  const upsert = (urn: string, aspectName: string, value: unknown, extra: Partial<Mcp> = {}): Mcp => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: value,
    ...extra,
  });
  const read = async (urn: string, aspect: string) => (await t.call(pythonGetAspect(urn, aspect, 0, ADMIN))).body?.aspect;

  it('testConnection: GET /config with a JSON content type and no body answers 200, as a self-hosted DataHub', async () => {
    const res = await t.call({ method: 'GET', url: '/config', headers: javaHeaders() });
    assert.equal(res.status, 200);
    // The v2 client takes a server without serverEnv for DataHub Cloud.
    assert.equal(res.body.datahub.serverEnv, 'core');
  });

  it('decodes an aspect sent as Pegasus bytes: UTF-8 past ASCII arrives intact', async () => {
    const urn = datasetUrn('restli.java.bytes');
    const description = 'Données – café ☕ 😀';
    const res = await t.call(javaEmit(upsert(urn, 'datasetProperties', { description }), ADMIN));
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { value: 'success' });
    assert.deepEqual(await read(urn, 'datasetProperties'), { 'com.linkedin.dataset.DatasetProperties': { description } });
  });

  it('takes an aspect sent as text by a hand-written client as it is', async () => {
    const urn = datasetUrn('restli.java.text');
    const request = javaEmit(upsert(urn, 'datasetProperties', { description: 'x' }), ADMIN);
    const body = JSON.parse(String(request.payload));
    body.proposal.aspect.value = JSON.stringify({ description: 'café ☕' });
    const res = await t.call({ ...request, payload: JSON.stringify(body) });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(await read(urn, 'datasetProperties'), { 'com.linkedin.dataset.DatasetProperties': { description: 'café ☕' } });
  });

  it('reads as the v2 client does: URL-encoded URN, List(aspect), systemMetadata for optimistic locking', async () => {
    const urn = datasetUrn('restli.java.read');
    assert.equal((await t.call(javaEmit(upsert(urn, 'status', { removed: false }), ADMIN))).status, 200);
    const res = await t.call(javaGetEntity(urn, 'status', ADMIN));
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(Object.keys(res.body.aspects).sort(), ['datasetKey', 'status']);
    assert.deepEqual(res.body.aspects.status.value, { removed: false });
    assert.equal(res.body.aspects.status.systemMetadata.version, '1');
    assert.equal(javaUrlEncode(urn).includes('('), false, 'the URN travels encoded');
  });

  it('applies PATCH proposals the Java patch builders send: application/json, a bare array or with arrayPrimaryKeys', async () => {
    const urn = datasetUrn('restli.java.patch');
    assert.equal((await t.call(javaEmit(upsert(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] }), ADMIN))).status, 200);
    const bare = await t.call(javaEmit(upsert(urn, 'globalTags', [{ op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:b' } }], { changeType: 'PATCH' }), ADMIN));
    assert.equal(bare.status, 200, bare.raw);
    const keyed = await t.call(
      javaEmit(
        upsert(urn, 'globalTags', { patch: [{ op: 'remove', path: '/tags/urn:li:tag:a' }], arrayPrimaryKeys: { tags: ['tag'] } }, { changeType: 'PATCH' }),
        ADMIN,
      ),
    );
    assert.equal(keyed.status, 200, keyed.raw);
    assert.deepEqual(await read(urn, 'globalTags'), { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:b' }] } });
  });

  it('deletes an aspect with a DELETE proposal, and the whole entity with a DELETE of its key', async () => {
    const urn = datasetUrn('restli.java.delete');
    assert.equal((await t.call(javaEmit(upsert(urn, 'status', { removed: false }), ADMIN))).status, 200);
    assert.equal((await t.call(javaEmit(upsert(urn, 'globalTags', { tags: [] }), ADMIN))).status, 200);
    const aspect = await t.call(javaEmit(upsert(urn, 'globalTags', undefined, { changeType: 'DELETE' }), ADMIN));
    assert.equal(aspect.status, 200, aspect.raw);
    assert.equal((await t.call(pythonGetAspect(urn, 'globalTags', 0, ADMIN))).status, 404);
    assert.equal((await t.call(pythonGetAspect(urn, 'status', 0, ADMIN))).status, 200);
    const entity = await t.call(javaEmit(upsert(urn, 'datasetKey', undefined, { changeType: 'DELETE' }), ADMIN));
    assert.equal(entity.status, 200, entity.raw);
    assert.equal((await t.call(pythonGetAspect(urn, 'status', 0, ADMIN))).status, 404);
    assert.equal((await t.call(pythonGetAspect(urn, 'datasetKey', 0, ADMIN))).status, 404);
  });

  it('refuses a second CREATE_ENTITY with 409 in Rest.li\'s shape, which the emitter reports as a failure', async () => {
    const urn = datasetUrn('restli.java.create');
    assert.equal((await t.call(javaEmit(upsert(urn, 'status', { removed: false }, { changeType: 'CREATE_ENTITY' }), ADMIN))).status, 200);
    const again = await t.call(javaEmit(upsert(urn, 'status', { removed: false }, { changeType: 'CREATE_ENTITY' }), ADMIN));
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, restliError(409, `Cannot perform CREATE_ENTITY since the entity ${urn} already exists`));
  });
});
