import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

describe('POST /openapi/v2/entity/{type}/{urn}/{aspect}', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const post = (urn: string, aspect: string, payload: unknown, query = '', headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/${aspect}${query}`, payload: payload as object, headers });

  it('writes the bare aspect and answers {urn, aspects:{name:{value}}}', async () => {
    const urn = datasetUrn('write.basic');
    const res = await post(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { urn, aspects: { globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }] } } } });
  });

  it('creates the key, browsePathsV2 and dataPlatformInstance of a new dataset', async () => {
    const urn = datasetUrn('write.defaults', 'snowflake');
    await post(urn, 'status', { removed: false });
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}` });
    assert.deepEqual(res.body.aspects, {
      datasetKey: { value: { platform: 'urn:li:dataPlatform:snowflake', name: 'write.defaults', origin: 'PROD' } },
      browsePathsV2: { value: { path: [{ id: 'Default' }] } },
      dataPlatformInstance: { value: { platform: 'urn:li:dataPlatform:snowflake' } },
      status: { value: { removed: false } },
    });
  });

  it('upserts by default and keeps the earlier value as history', async () => {
    const urn = datasetUrn('write.upsert');
    await post(urn, 'status', { removed: false });
    const second = await post(urn, 'status', { removed: true }, '?systemMetadata=true');
    assert.equal(second.status, 200);
    assert.equal(second.body.aspects.status.systemMetadata.version, '2');
    const first = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status?version=1` });
    assert.deepEqual(first.body, { value: { removed: false } });
  });

  it('stores exactly the value written: audit data goes to systemMetadata only', async () => {
    const urn = datasetUrn('write.exact');
    const value = { description: 'orders', customProperties: { team: 'sales' } };
    await post(urn, 'datasetProperties', value);
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/datasetProperties?systemMetadata=true` });
    assert.deepEqual(res.body.value, value);
    assert.equal(res.body.systemMetadata.aspectModified.actor, 'urn:li:corpuser:datahub');
    assert.equal(typeof res.body.systemMetadata.lastObserved, 'number');
  });

  it('does not create a new version when the value is unchanged, but refreshes lastObserved', async () => {
    const urn = datasetUrn('write.same');
    const first = await post(urn, 'status', { removed: false }, '?systemMetadata=true');
    await new Promise((r) => setTimeout(r, 5));
    const again = await post(urn, 'status', { removed: false }, '?systemMetadata=true');
    assert.equal(again.body.aspects.status.systemMetadata.version, '1');
    assert.ok(again.body.aspects.status.systemMetadata.lastObserved > first.body.aspects.status.systemMetadata.lastObserved);
    const history = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status?version=2` });
    assert.equal(history.status, 404);
  });

  it('answers with the canonical aspect name when written all-lowercase', async () => {
    const urn = datasetUrn('write.lowercase');
    const res = await post(urn, 'globaltags', { tags: [] });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.aspects), ['globalTags']);
  });

  it('createIfNotExists=true answers 409 when the aspect exists and writes nothing', async () => {
    const urn = datasetUrn('write.create');
    assert.equal((await post(urn, 'status', { removed: false }, '?createIfNotExists=true')).status, 200);
    const res = await post(urn, 'status', { removed: true }, '?createIfNotExists=true');
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, {
      error: 'Conflict',
      message: `Cannot perform CREATE since the aspect status of ${urn} already exists`,
    });
    const stored = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` });
    assert.deepEqual(stored.body, { value: { removed: false } });
  });

  it('createEntityIfNotExists=true answers 409 when the entity exists', async () => {
    const urn = datasetUrn('write.createEntity');
    assert.equal((await post(urn, 'status', { removed: false }, '?createEntityIfNotExists=true')).status, 200);
    const res = await post(urn, 'globalTags', { tags: [] }, '?createEntityIfNotExists=true');
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { error: 'Conflict', message: `Cannot perform CREATE_ENTITY since the entity ${urn} already exists` });
  });

  it('If-Version-Match: writes when the version matches, 412 when it differs, -1 means must not exist', async () => {
    const urn = datasetUrn('write.ifmatch');
    assert.equal((await post(urn, 'status', { removed: false }, '', { 'If-Version-Match': '-1' })).status, 200);
    const stale = await post(urn, 'status', { removed: true }, '', { 'If-Version-Match': '-1' });
    assert.equal(stale.status, 412);
    assert.deepEqual(stale.body, {
      error: 'Precondition Error',
      message: `Expected version -1, actual version 1 for aspect status of ${urn}`,
    });
    assert.equal((await post(urn, 'status', { removed: true }, '', { 'If-Version-Match': '1' })).status, 200);
    const old = await post(urn, 'status', { removed: false }, '', { 'If-Version-Match': '1' });
    assert.equal(old.status, 412);
    assert.equal(old.body.message, `Expected version 1, actual version 2 for aspect status of ${urn}`);
    const far = await post(urn, 'status', { removed: false }, '', { 'If-Version-Match': '-10000' });
    assert.equal(far.status, 412);
  });

  it('rejects a non-numeric If-Version-Match with 400', async () => {
    const res = await post(datasetUrn('write.ifmatch.bad'), 'status', { removed: false }, '', { 'If-Version-Match': 'abc' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'If-Version-Match must be an integer, got "abc"' });
  });

  it('rejects a value that breaks the aspect schema with 400 naming the aspect and field', async () => {
    const urn = datasetUrn('write.invalid');
    const res = await post(urn, 'globalTags', { tags: [{ tag: 'not-a-urn' }] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Aspect globalTags is invalid: field tags[0].tag must be a URN of type tag' });
    const missing = await post(urn, 'status', { removed: 'yes' });
    assert.deepEqual(missing.body, { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' });
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 404, 'nothing was written');
  });

  // Found by the hostile-input suite: listing every item's error made this take minutes of CPU.
  it('rejects 100,000 invalid array items with the first one\'s error, at once', { timeout: 10_000 }, async () => {
    const urn = datasetUrn('write.invalid.many');
    const began = performance.now();
    const res = await post(urn, 'testResults', { passing: [], failing: Array.from({ length: 100_000 }, () => ({})) });
    const took = performance.now() - began;
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Aspect testResults is invalid: field failing[0].test is required' });
    assert.ok(took < 2_000, `took ${took.toFixed(0)} ms`);
    assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 404, 'nothing was written');
  });

  it('rejects a URN of the wrong entity type in a tag field', async () => {
    const res = await post(datasetUrn('write.urntype'), 'globalTags', { tags: [{ tag: 'urn:li:glossaryTerm:x' }] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'Validation Error',
      message: 'Aspect globalTags is invalid: field tags[0].tag must be a URN of type tag',
    });
  });

  it('rejects an aspect the entity type does not have with 400', async () => {
    const res = await post(datasetUrn('write.unknownaspect'), 'propertyDefinition', { qualifiedName: 'x' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown aspect propertyDefinition for entity type dataset' });
  });

  it('rejects a malformed URN with 400 {"error":"Invalid urn!: <urn>"}', async () => {
    const bad = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD';
    const res = await post(bad, 'status', { removed: false });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` });
  });

  it('rejects a dataset URN whose fabric is not one DataHub knows', async () => {
    const bad = datasetUrn('x', 'hive', 'INVALID');
    const res = await post(bad, 'status', { removed: false });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` });
  });

  it('rejects a path that does not start with urn:li:', async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/hello/status`, payload: { removed: false } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Invalid urn!: hello' });
  });

  it('rejects a URN whose entity type differs from the path', async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/chart/${enc(datasetUrn('x'))}/status`, payload: { removed: false } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: `The URN ${datasetUrn('x')} is not of entity type chart` });
  });

  it('rejects an unknown entity type in the path', async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/foo/${enc('urn:li:foo:x')}/status`, payload: { removed: false } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown entity type foo' });
  });

  it('rejects a body that is not JSON with 400', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(datasetUrn('x'))}/status`,
      headers: { 'content-type': 'application/json' },
      payload: '{"removed":',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Bad Request');
    assert.match(res.body.message, /JSON/);
  });

  it('rejects a missing body with 400', async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(datasetUrn('x'))}/status` });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Missing value for aspect status' });
  });

  it('rejects a JSON array where an aspect object is expected', async () => {
    const res = await post(datasetUrn('x'), 'status', [1, 2]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Aspect status is invalid: field (root) must be object' });
  });

  it('rejects a body with __proto__ keys with 400', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(datasetUrn('x'))}/status`,
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"polluted":true},"removed":false}',
    });
    assert.equal(res.status, 400);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('rejects a body nested deeper than 1000 levels with 400, as JSON or as JSON Patch', async () => {
    const nested = (levels: number) => `{"description":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const url = `${V2}/dataset/${enc(datasetUrn('write.deep'))}/editableDatasetProperties`;
    const atLimit = await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: nested(1000) });
    assert.deepEqual([atLimit.status, atLimit.body.message], [400, 'Aspect editableDatasetProperties is invalid: field description must be string']);
    for (const payload of [nested(1001), nested(400_000)]) {
      const res = await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message: 'Request body nests deeper than 1000 levels' });
    }
    const patch = `{"patch":[{"op":"add","path":"/description","value":${'['.repeat(2000)}${']'.repeat(2000)}}]}`;
    const patched = await t.call({ method: 'PATCH', url, headers: { 'content-type': 'application/json-patch+json' }, payload: patch });
    assert.equal(patched.status, 400);
    assert.deepEqual(patched.body, { error: 'Validation Error', message: 'Request body nests deeper than 1000 levels' });
    assert.equal((await t.call({ method: 'GET', url })).status, 404);
  });

  it('answers 415 for a content type other than JSON', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V2}/dataset/${enc(datasetUrn('x'))}/status`,
      headers: { 'content-type': 'text/plain' },
      payload: 'removed',
    });
    assert.equal(res.status, 415);
    assert.deepEqual(res.body, {
      error: 'Unsupported Media Type',
      message: 'Content type text/plain is not supported; send application/json',
    });
  });

  it('answers 413 for a body over the configured limit', async () => {
    const res = await post(datasetUrn('x'), 'editableDatasetProperties', { description: 'x'.repeat(1024 * 1024 + 1) });
    assert.equal(res.status, 413);
    assert.equal(res.body.error, 'Payload Too Large');
  });

  it('answers 400 for a query parameter of the wrong type', async () => {
    const res = await post(datasetUrn('x'), 'status', { removed: false }, '?createIfNotExists=maybe');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation Error');
    assert.match(res.body.message, /createIfNotExists must be boolean/);
  });

  it('accepts async=true and answers 202 after committing', async () => {
    const urn = datasetUrn('write.async');
    const res = await post(urn, 'status', { removed: true }, '?async=true');
    assert.equal(res.status, 202);
    const stored = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` });
    assert.deepEqual(stored.body, { value: { removed: true } });
  });

  it('writes the key aspect explicitly only when it matches the URN', async () => {
    const urn = datasetUrn('write.key');
    const good = await post(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'write.key', origin: 'PROD' });
    assert.equal(good.status, 200);
    const bad = await post(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'other', origin: 'PROD' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { error: 'Validation Error', message: `Key aspect datasetKey does not match the URN ${urn}` });
  });
});
