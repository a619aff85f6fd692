import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pythonEmit, pythonEmitBatch, type Mcp } from '../restli/clients.js';
import { v3Url } from './v3-fixtures.js';

/**
 * `If-None-Match: *` on a create (CREATE, CREATE_ENTITY): when what it would create is there, the
 * write is dropped, not refused, as DataHub's CreateIfNotExistsValidator filters it. Nothing is
 * written (no version, no change-log event), the rest of the request goes on, and the answer shows
 * the aspect as it is stored. Without the header, or with any other value, the create is a 409.
 */
describe('If-None-Match: * on a create', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const eventsOf = async (urn: string) => (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === urn).map((e) => `${e.changeType} ${e.aspect}`);
  const v2Read = async (urn: string, aspect: string) => (await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/${aspect}?systemMetadata=true` })).body;

  it('v2: a create of an aspect that exists is dropped and answers 200 with the stored aspect; nothing is written', async () => {
    const urn = datasetUrn('inm.v2.exists');
    const url = `${V2}/dataset/${enc(urn)}/globalTags?createIfNotExists=true`;
    const first = await t.call({ method: 'POST', url, headers: { 'if-none-match': '*' }, payload: { tags: [{ tag: 'urn:li:tag:first' }] } });
    assert.equal(first.status, 200, first.raw);
    assert.deepEqual(first.body, { urn, aspects: { globalTags: { value: { tags: [{ tag: 'urn:li:tag:first' }] } } } });
    const before = await eventsOf(urn);

    const again = await t.call({ method: 'POST', url, headers: { 'if-none-match': '*' }, payload: { tags: [{ tag: 'urn:li:tag:second' }] } });
    assert.equal(again.status, 200, again.raw);
    assert.deepEqual(again.body, { urn, aspects: { globalTags: { value: { tags: [{ tag: 'urn:li:tag:first' }] } } } });
    const stored = await v2Read(urn, 'globalTags');
    assert.deepEqual(stored.value, { tags: [{ tag: 'urn:li:tag:first' }] });
    assert.equal(stored.systemMetadata.version, '1');
    assert.deepEqual(await eventsOf(urn), before);
  });

  it('v2: without the header, or with another value, the same create is a 409', async () => {
    const urn = datasetUrn('inm.v2.refused');
    const url = `${V2}/dataset/${enc(urn)}/status?createIfNotExists=true`;
    assert.equal((await t.call({ method: 'POST', url, payload: { removed: false } })).status, 200);
    for (const headers of [{}, { 'if-none-match': '"v1"' }]) {
      const res = await t.call({ method: 'POST', url, headers, payload: { removed: true } });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { error: 'Conflict', message: `Cannot perform CREATE since the aspect status of ${urn} already exists` });
    }
  });

  it('v2: createEntityIfNotExists on an entity that exists without the aspect is dropped: 200 {urn, aspects: {}}, nothing written', async () => {
    const urn = datasetUrn('inm.v2.entity');
    assert.equal((await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/status`, payload: { removed: false } })).status, 200);
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(urn)}/globalTags?createEntityIfNotExists=true`,
      headers: { 'if-none-match': '*' },
      payload: { tags: [{ tag: 'urn:li:tag:late' }] },
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { urn, aspects: {} });
    const read = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/globalTags` });
    assert.equal(read.status, 404);
    assert.deepEqual(read.body, { error: 'Not Found', message: `Aspect globalTags of ${urn} not found` });
  });

  it('v2: a create with the header writes as usual when nothing is there yet', async () => {
    const urn = datasetUrn('inm.v2.new');
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(urn)}/status?createEntityIfNotExists=true`,
      headers: { 'if-none-match': '*' },
      payload: { removed: false },
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { urn, aspects: { status: { value: { removed: false } } } });
    assert.deepEqual(await eventsOf(urn), ['UPSERT datasetKey', 'UPSERT browsePathsV2', 'UPSERT dataPlatformInstance', 'CREATE_ENTITY status']);
  });

  it('v3: the body\'s headers carry it (as DataHub reads them), or the request\'s', async () => {
    const urn = datasetUrn('inm.v3');
    const post = (payload: object, headers: Record<string, string> = {}) => t.call({ method: 'POST', url: v3Url('dataset', urn, 'status'), payload, headers });
    assert.equal((await post({ value: { removed: false } })).status, 200);
    const inBody = await post({ value: { removed: true }, headers: { 'If-None-Match': '*' } });
    assert.equal(inBody.status, 200, inBody.raw);
    assert.deepEqual(inBody.body, { urn, status: { value: { removed: false } } });
    const inRequest = await post({ value: { removed: true } }, { 'if-none-match': '*' });
    assert.equal(inRequest.status, 200, inRequest.raw);
    assert.deepEqual(inRequest.body, { urn, status: { value: { removed: false } } });
    const refused = await post({ value: { removed: true } });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, { error: 'Conflict', message: `Cannot perform CREATE since the aspect status of ${urn} already exists` });
    assert.deepEqual((await t.call({ method: 'GET', url: v3Url('dataset', urn, 'status') })).body, { value: { removed: false } });
  });

  it('If-Version-Match is still checked first: a version that does not hold is a 412 whatever If-None-Match says', async () => {
    const urn = datasetUrn('inm.v3.version');
    assert.equal((await t.call({ method: 'POST', url: v3Url('dataset', urn, 'status'), payload: { value: { removed: false } } })).status, 200);
    const res = await t.call({ method: 'POST', url: v3Url('dataset', urn, 'status'), payload: { value: { removed: true }, headers: { 'If-None-Match': '*', 'If-Version-Match': '7' } } });
    assert.equal(res.status, 412);
    assert.deepEqual(res.body, { error: 'Precondition Error', message: `Expected version 7, actual version 1 for aspect status of ${urn}` });
  });

  it('Rest.li: a CREATE proposal with the header in its headers is dropped; the rest of the batch is written', async () => {
    const urn = datasetUrn('inm.restli');
    const mcp = (aspectName: string, aspect: unknown, changeType: string): Mcp => ({ entityType: 'dataset', entityUrn: urn, changeType, aspectName, aspect, headers: { 'If-None-Match': '*' } });
    const first = await t.call(pythonEmit(mcp('datasetProperties', { name: 'first', customProperties: {}, tags: [] }, 'CREATE')));
    assert.equal(first.status, 200, first.raw);
    assert.deepEqual(first.body, { value: 'success' });
    const batch = await t.call(
      pythonEmitBatch([mcp('datasetProperties', { name: 'second', customProperties: {}, tags: [] }, 'CREATE'), mcp('status', { removed: false }, 'CREATE')], undefined, false),
    );
    assert.equal(batch.status, 200, batch.raw);
    assert.deepEqual(batch.body, { value: 'success' });
    assert.equal((await v2Read(urn, 'datasetProperties')).value.name, 'first');
    assert.deepEqual((await v2Read(urn, 'status')).value, { removed: false });
    const refused = await t.call(pythonEmit({ ...mcp('status', { removed: true }, 'CREATE'), headers: undefined }));
    assert.equal(refused.status, 409);
    assert.equal(refused.body.message, `Cannot perform CREATE since the aspect status of ${urn} already exists`);
  });
});
