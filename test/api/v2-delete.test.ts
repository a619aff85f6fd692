import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

describe('DELETE on /openapi/v2/entity', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const create = async (name: string) => {
    const urn = datasetUrn(name);
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset?async=false`,
      payload: [{ urn, aspects: { status: { value: { removed: false } }, globalTags: { value: { tags: [] } } } }],
    });
    assert.equal(res.status, 200);
    return urn;
  };
  const aspectsOf = async (urn: string) => {
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}` });
    return res.status === 404 ? null : Object.keys(res.body.aspects).sort();
  };

  it('hard-deletes a whole entity and answers 200 with an empty body', async () => {
    const urn = await create('delete.entity');
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}` });
    assert.equal(res.status, 200);
    assert.equal(res.raw, '');
    assert.equal(await aspectsOf(urn), null);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status?version=1` })).status, 404);
  });

  it('answers 200 when the entity does not exist', async () => {
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(datasetUrn('delete.absent'))}` });
    assert.equal(res.status, 200);
  });

  it('answers 400 for a malformed URN', async () => {
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc('urn:li:dataset:(x')}` });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Invalid urn!: urn:li:dataset:(x' });
  });

  it('aspects=a,b deletes only those aspects', async () => {
    const urn = await create('delete.some');
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}?aspects=status,globalTags` });
    assert.equal(res.status, 200);
    assert.deepEqual(await aspectsOf(urn), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey']);
  });

  it('aspects naming the key aspect deletes the whole entity', async () => {
    const urn = await create('delete.key');
    await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}?aspects=datasetKey` });
    assert.equal(await aspectsOf(urn), null);
  });

  it('clear=true keeps only the key aspect', async () => {
    const urn = await create('delete.clear');
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}?clear=true` });
    assert.equal(res.status, 200);
    assert.deepEqual(await aspectsOf(urn), ['datasetKey']);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 204);
  });

  it('DELETE of one aspect removes it with its history', async () => {
    const urn = await create('delete.aspect');
    await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, payload: { removed: true } });
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}/status` });
    assert.equal(res.status, 200);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` })).status, 404);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status?version=1` })).status, 404);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}/globalTags` })).status, 204);
  });

  it('DELETE of an absent aspect answers 200', async () => {
    const urn = await create('delete.aspect.absent');
    assert.equal((await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}/ownership` })).status, 200);
  });

  it('DELETE of an aspect the entity type does not have answers 400', async () => {
    const urn = await create('delete.aspect.unknown');
    const res = await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}/nonsense` });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown aspect nonsense for entity type dataset' });
  });

  it('a deleted entity can be created again, starting at version 1', async () => {
    const urn = await create('delete.recreate');
    await t.call({ method: 'DELETE', url: `${V2}/dataset/${enc(urn)}` });
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status?systemMetadata=true`, payload: { removed: true } });
    assert.equal(res.body.aspects.status.systemMetadata.version, '1');
    assert.deepEqual(await aspectsOf(urn), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'status']);
  });
});
