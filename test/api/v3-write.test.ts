import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { v3Url } from './v3-fixtures.js';

describe('POST /openapi/v3/entity/{type}/{urn}/{aspect}', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const post = (urn: string, aspect: string, payload: unknown, query = '', headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: `${v3Url('dataset', urn, aspect)}${query}`, payload: payload as object, headers });
  const read = async (urn: string, aspect: string) => (await t.call({ method: 'GET', url: v3Url('dataset', urn, aspect) })).body;

  it('writes {value} and answers 200 {urn, <aspect>: {value}}', async () => {
    const urn = datasetUrn('v3write.basic');
    const res = await post(urn, 'globalTags', { value: { tags: [{ tag: 'urn:li:tag:pii' }] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { urn, globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }] } } });
  });

  it('creates by default (createIfNotExists=true): a second write of the aspect is 409 and changes nothing', async () => {
    const urn = datasetUrn('v3write.create');
    assert.equal((await post(urn, 'status', { value: { removed: false } })).status, 200);
    const res = await post(urn, 'status', { value: { removed: true } });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { error: 'Conflict', message: `Cannot perform CREATE since the aspect status of ${urn} already exists` });
    assert.deepEqual(await read(urn, 'status'), { value: { removed: false } });
  });

  it('upserts with createIfNotExists=false', async () => {
    const urn = datasetUrn('v3write.upsert');
    await post(urn, 'status', { value: { removed: false } });
    const res = await post(urn, 'status', { value: { removed: true } }, '?createIfNotExists=false&systemMetadata=true');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.status.value, { removed: true });
    assert.equal(res.body.status.systemMetadata.version, '2');
    assert.deepEqual(res.body.status.auditStamp, res.body.status.systemMetadata.aspectModified);
  });

  it('createIfEntityNotExists (and the spelling createEntityIfNotExists) refuses with 409 when the entity exists', async () => {
    const urn = datasetUrn('v3write.createEntity');
    assert.equal((await post(urn, 'status', { value: { removed: false } }, '?createIfEntityNotExists=true')).status, 200);
    for (const query of ['?createIfEntityNotExists=true', '?createEntityIfNotExists=true', '?createIfEntityNotExists=true&createIfNotExists=false']) {
      const res = await post(urn, 'globalTags', { value: { tags: [] } }, query);
      assert.equal(res.status, 409, query);
      assert.deepEqual(res.body, { error: 'Conflict', message: `Cannot perform CREATE_ENTITY since the entity ${urn} already exists` });
    }
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn, 'globalTags') })).status, 404);
  });

  it('async=true answers 202 with the same body, the write committed', async () => {
    const urn = datasetUrn('v3write.async');
    const res = await post(urn, 'status', { value: { removed: false } }, '?async=true');
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { urn, status: { value: { removed: false } } });
    assert.deepEqual(await read(urn, 'status'), { value: { removed: false } });
  });

  it('takes If-Version-Match from the body\'s headers, or else from the HTTP header: 412 when it does not hold', async () => {
    const urn = datasetUrn('v3write.ifversion');
    const missing = await post(urn, 'status', { value: { removed: false }, headers: { 'If-Version-Match': '-10000' } }, '?createIfNotExists=false');
    assert.equal(missing.status, 412);
    assert.deepEqual(missing.body, { error: 'Precondition Error', message: `Expected version -10000, actual version -1 for aspect status of ${urn}` });
    assert.equal((await post(urn, 'status', { value: { removed: false }, headers: { 'If-Version-Match': '-1' } })).status, 200);
    const http = await post(urn, 'status', { value: { removed: true } }, '?createIfNotExists=false', { 'if-version-match': '7' });
    assert.equal(http.status, 412);
    const bodyWins = await post(urn, 'status', { value: { removed: true }, headers: { 'if-version-match': '1' } }, '?createIfNotExists=false', { 'if-version-match': '7' });
    assert.equal(bodyWins.status, 200);
    assert.deepEqual(await read(urn, 'status'), { value: { removed: true } });
  });

  it('stores the runId and properties of the body\'s systemMetadata', async () => {
    const urn = datasetUrn('v3write.sm');
    await post(urn, 'status', { value: { removed: false }, systemMetadata: { runId: 'run-1', properties: { team: 'a' } } });
    const res = await t.call({ method: 'GET', url: `${v3Url('dataset', urn, 'status')}?systemMetadata=true` });
    assert.equal(res.body.systemMetadata.runId, 'run-1');
    assert.deepEqual(res.body.systemMetadata.properties, { team: 'a', eventSource: 'OPENAPI' });
  });

  it('answers with the canonical aspect name when the path spells it all-lowercase', async () => {
    const urn = datasetUrn('v3write.lowercase');
    const res = await post(urn, 'globaltags', { value: { tags: [] } });
    assert.deepEqual(res.body, { urn, globalTags: { value: { tags: [] } } });
  });

  it('refuses a body that is not {value, …} with 400 and writes nothing', async () => {
    const urn = datasetUrn('v3write.shape');
    const cases: Array<[unknown, string]> = [
      [{ removed: false }, 'body: expected {"value": …}'],
      [[1], 'The body must be {"value": …, "systemMetadata"?: …, "headers"?: …}'],
      [{ value: { removed: false }, systemMetadata: 'x' }, 'body.systemMetadata must be an object'],
      [{ value: { removed: false }, headers: ['x'] }, 'body.headers must be an object'],
    ];
    for (const [payload, message] of cases) {
      const res = await post(urn, 'status', payload);
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.deepEqual(res.body, { error: 'Validation Error', message });
    }
    const none = await t.call({ method: 'POST', url: v3Url('dataset', urn, 'status') });
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, { error: 'Validation Error', message: 'The body must be {"value": …, "systemMetadata"?: …, "headers"?: …}' });
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn) })).status, 404);
  });

  it('refuses a value its schema refuses, an unknown aspect, and a URN of another type than the path names', async () => {
    const urn = datasetUrn('v3write.refused');
    const bad = await post(urn, 'status', { value: { removed: 'no' } });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' }]);
    const unknown = await post(urn, 'nonsense', { value: {} });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 'Validation Error', message: 'Unknown aspect nonsense for entity type dataset' }]);
    const other = await t.call({ method: 'POST', url: v3Url('chart', urn, 'status'), payload: { value: { removed: false } } });
    assert.deepEqual([other.status, other.body], [400, { error: 'Validation Error', message: `The URN ${urn} is not of entity type chart` }]);
    const generic = await t.call({ method: 'POST', url: v3Url('generic', urn, 'status'), payload: { value: { removed: false } } });
    assert.deepEqual([generic.status, generic.body], [400, { error: 'Validation Error', message: 'Unknown entity type generic' }]);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn) })).status, 404);
  });

  it('accepts the entity name in any case', async () => {
    const urn = datasetUrn('v3write.case');
    const res = await t.call({ method: 'POST', url: v3Url('DataSet', urn, 'status'), payload: { value: { removed: false } } });
    assert.equal(res.status, 200);
  });
});

describe('PATCH /openapi/v3/entity/{type}/{urn}/{aspect}', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const patch = (urn: string, aspect: string, payload: unknown, query = '', headers: Record<string, string> = {}) =>
    t.call({ method: 'PATCH', url: `${v3Url('dataset', urn, aspect)}${query}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json-patch+json', ...headers } });

  it('applies {patch} to the aspect\'s template when it does not exist and answers the whole aspect', async () => {
    const urn = datasetUrn('v3patch.template');
    const res = await patch(urn, 'datasetProperties', { patch: [{ op: 'add', path: '/description', value: 'd' }] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { urn, datasetProperties: { value: { customProperties: {}, tags: [], description: 'd' } } });
  });

  it('accepts a bare array of operations, and application/json', async () => {
    const urn = datasetUrn('v3patch.bare');
    const res = await t.call({ method: 'PATCH', url: v3Url('dataset', urn, 'status'), payload: [{ op: 'add', path: '/removed', value: true }] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { urn, status: { value: { removed: true } } });
  });

  it('addresses array items by key with arrayPrimaryKeys', async () => {
    const urn = datasetUrn('v3patch.keys');
    await patch(urn, 'globalTags', { patch: [{ op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a' } }, { op: 'add', path: '/tags/urn:li:tag:b', value: { tag: 'urn:li:tag:b' } }], arrayPrimaryKeys: { tags: ['tag'] } });
    const res = await patch(urn, 'globalTags', { patch: [{ op: 'remove', path: '/tags/urn:li:tag:a', value: {} }], arrayPrimaryKeys: { tags: ['tag'] }, forceGenericPatch: false });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.globalTags.value, { tags: [{ tag: 'urn:li:tag:b' }] });
  });

  it('answers 200 whatever async says, as DataHub does', async () => {
    const res = await patch(datasetUrn('v3patch.async'), 'status', { patch: [{ op: 'add', path: '/removed', value: false }] }, '?async=true&systemMetadata=true');
    assert.equal(res.status, 200);
    assert.equal(res.body.status.systemMetadata.version, '1');
  });

  it('answers 412 when If-Version-Match does not hold, 400 for a patch that does not apply or a result the schema refuses', async () => {
    const urn = datasetUrn('v3patch.refused');
    await patch(urn, 'status', { patch: [{ op: 'add', path: '/removed', value: false }] });
    const stale = await patch(urn, 'status', { patch: [{ op: 'add', path: '/removed', value: true }] }, '', { 'if-version-match': '2' });
    assert.deepEqual([stale.status, stale.body], [412, { error: 'Precondition Error', message: `Expected version 2, actual version 1 for aspect status of ${urn}` }]);
    const missingPath = await patch(urn, 'status', { patch: [{ op: 'remove', path: '/nope' }] });
    assert.equal(missingPath.status, 400);
    assert.match(missingPath.body.message, /^Patch operation 0 \(remove \/nope\) cannot be applied/);
    const schema = await patch(urn, 'status', { patch: [{ op: 'add', path: '/removed', value: 'x' }] });
    assert.deepEqual([schema.status, schema.body], [400, { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' }]);
    const shape = await patch(urn, 'status', { ops: [] });
    assert.deepEqual([shape.status, shape.body], [400, { error: 'Validation Error', message: 'Patch body must be an object with a `patch` array of operations' }]);
    const read = await t.call({ method: 'GET', url: v3Url('dataset', urn, 'status') });
    assert.deepEqual(read.body, { value: { removed: false } });
  });
});

describe('DELETE on /openapi/v3/entity', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const seed = async (urn: string) => {
    const res = await t.call({
      method: 'POST',
      url: '/openapi/v3/entity/dataset?async=false',
      payload: [{ urn, status: { value: { removed: false } }, globalTags: { value: { tags: [] } } }],
    });
    assert.equal(res.status, 200, res.raw);
  };
  const aspects = async (urn: string) => {
    const res = await t.call({ method: 'GET', url: v3Url('dataset', urn) });
    return res.status === 404 ? undefined : Object.keys(res.body).filter((k) => k !== 'urn').sort();
  };

  it('deletes a whole entity and answers 200 with no body, by any entity name in the path', async () => {
    for (const type of ['dataset', 'generic']) {
      const urn = datasetUrn(`v3delete.whole.${type}`);
      await seed(urn);
      const res = await t.call({ method: 'DELETE', url: v3Url(type, urn) });
      assert.equal(res.status, 200);
      assert.equal(res.raw, '');
      assert.equal(await aspects(urn), undefined);
    }
  });

  it('deletes only the aspects named, or all but the key with clear=true', async () => {
    const urn = datasetUrn('v3delete.some');
    await seed(urn);
    assert.equal((await t.call({ method: 'DELETE', url: `${v3Url('dataset', urn)}?aspects=globalTags&aspects=status` })).status, 200);
    assert.deepEqual(await aspects(urn), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey']);
    assert.equal((await t.call({ method: 'DELETE', url: `${v3Url('dataset', urn)}?clear=true` })).status, 200);
    assert.deepEqual(await aspects(urn), ['datasetKey']);
  });

  it('deletes one aspect; answers 200 when there is nothing to delete', async () => {
    const urn = datasetUrn('v3delete.aspect');
    await seed(urn);
    assert.equal((await t.call({ method: 'DELETE', url: v3Url('dataset', urn, 'globaltags') })).status, 200);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', urn, 'globalTags') })).status, 404);
    assert.equal((await t.call({ method: 'DELETE', url: v3Url('dataset', urn, 'globalTags') })).status, 200);
    assert.equal((await t.call({ method: 'DELETE', url: v3Url('dataset', datasetUrn('v3delete.none')) })).status, 200);
  });

  it('answers 400 for an unknown aspect name or an invalid URN, deleting nothing', async () => {
    const urn = datasetUrn('v3delete.refused');
    await seed(urn);
    const unknown = await t.call({ method: 'DELETE', url: v3Url('dataset', urn, 'nonsense') });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 'Validation Error', message: 'Unknown aspect nonsense for entity type dataset' }]);
    const some = await t.call({ method: 'DELETE', url: `${v3Url('dataset', urn)}?aspects=status,nonsense` });
    assert.equal(some.status, 400);
    const invalid = await t.call({ method: 'DELETE', url: v3Url('dataset', 'urn:li:dataset:(x)') });
    assert.deepEqual([invalid.status, invalid.body], [400, { error: 'Invalid urn!: urn:li:dataset:(x)' }]);
    assert.deepEqual(await aspects(urn), ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags', 'status']);
  });
});
