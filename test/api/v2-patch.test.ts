import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

describe('PATCH /openapi/v2/entity/{type}/{urn}/{aspect}', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const patch = (urn: string, aspect: string, body: unknown, contentType = 'application/json-patch+json') =>
    t.call({
      method: 'PATCH',
      url: `${V2}/dataset/${enc(urn)}/${aspect}`,
      headers: { 'content-type': contentType },
      payload: JSON.stringify(body),
    });
  const write = (urn: string, aspect: string, value: unknown) =>
    t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/${aspect}`, payload: value as object });

  it('patches an absent aspect starting from its template and answers the full result', async () => {
    const urn = datasetUrn('patch.template');
    const res = await patch(urn, 'datasetProperties', { patch: [{ op: 'add', path: '/description', value: 'Orders placed online' }] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      urn,
      aspects: { datasetProperties: { value: { customProperties: {}, tags: [], description: 'Orders placed online' } } },
    });
  });

  it('removes a field', async () => {
    const urn = datasetUrn('patch.remove');
    await patch(urn, 'datasetProperties', { patch: [{ op: 'add', path: '/description', value: 'd' }] });
    const res = await patch(urn, 'datasetProperties', { patch: [{ op: 'remove', path: '/description' }] });
    assert.deepEqual(res.body.aspects.datasetProperties.value, { customProperties: {}, tags: [] });
  });

  it('applies replace, move, copy and test in order', async () => {
    const urn = datasetUrn('patch.ops');
    await write(urn, 'datasetProperties', { name: 'a', description: 'b', customProperties: { x: '1' } });
    const res = await patch(urn, 'datasetProperties', {
      patch: [
        { op: 'test', path: '/name', value: 'a' },
        { op: 'replace', path: '/name', value: 'renamed' },
        { op: 'copy', from: '/name', path: '/qualifiedName' },
        { op: 'move', from: '/customProperties/x', path: '/customProperties/y' },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.aspects.datasetProperties.value, {
      name: 'renamed',
      qualifiedName: 'renamed',
      description: 'b',
      customProperties: { y: '1' },
    });
  });

  it('accepts application/json as the content type too', async () => {
    const res = await patch(datasetUrn('patch.json'), 'status', { patch: [{ op: 'add', path: '/removed', value: true }] }, 'application/json');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.aspects.status.value, { removed: true });
  });

  it('answers 400 and writes nothing when a test operation fails', async () => {
    const urn = datasetUrn('patch.testfail');
    await write(urn, 'status', { removed: false });
    const res = await patch(urn, 'status', {
      patch: [
        { op: 'replace', path: '/removed', value: true },
        { op: 'test', path: '/removed', value: false },
      ],
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation Error');
    assert.match(res.body.message, /^Patch operation 1 \(test \/removed\) cannot be applied: /);
    const stored = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` });
    assert.deepEqual(stored.body, { value: { removed: false } });
  });

  it('answers 400 for a path that does not resolve', async () => {
    const res = await patch(datasetUrn('patch.badpath'), 'datasetProperties', { patch: [{ op: 'remove', path: '/nothing/here' }] });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^Patch operation 0 \(remove \/nothing\/here\) cannot be applied: /);
  });

  // Each copy of the root into itself doubles the document: 40 of them would ask for terabytes.
  it('answers 400 and writes nothing when copies would grow the document past 16 MiB of JSON', { timeout: 10_000 }, async () => {
    const urn = datasetUrn('patch.copybomb');
    await write(urn, 'status', { removed: false });
    const copies = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '', path: `/k${i}` }));
    const res = await patch(urn, 'status', { patch: copies });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'Validation Error',
      message: 'Patch operation 19 (copy /k19) cannot be applied: copies may add at most 16777216 characters of JSON to a document',
    });
    const stored = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/status` });
    assert.deepEqual(stored.body, { value: { removed: false } });
  });

  it('answers 400 when the patched value breaks the schema', async () => {
    const res = await patch(datasetUrn('patch.schema'), 'status', { patch: [{ op: 'add', path: '/removed', value: 'yes' }] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' });
  });

  const malformed: Array<[string, unknown, string]> = [
    ['no patch array', { ops: [] }, 'Patch body must be an object with a `patch` array of operations'],
    ['an unknown op', { patch: [{ op: 'merge', path: '/x' }] }, 'patch[0].op must be one of add, remove, replace, move, copy, test'],
    ['a missing path', { patch: [{ op: 'remove' }] }, 'patch[0].path must be a string'],
    ['a move without from', { patch: [{ op: 'move', path: '/x' }] }, 'patch[0].from must be a string'],
    ['an add without value', { patch: [{ op: 'add', path: '/x' }] }, 'patch[0].value is required for add'],
    ['bad arrayPrimaryKeys', { patch: [], arrayPrimaryKeys: { tags: 'tag' } }, 'arrayPrimaryKeys must map array field names to lists of key field names'],
  ];
  for (const [why, body, message] of malformed) {
    it(`answers 400 for a patch document with ${why}`, async () => {
      const res = await patch(datasetUrn('patch.malformed'), 'status', body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message });
    });
  }

  it('answers 415 for a text/plain patch', async () => {
    const res = await patch(datasetUrn('patch.415'), 'status', { patch: [] }, 'text/plain');
    assert.equal(res.status, 415);
  });

  describe('with arrayPrimaryKeys', () => {
    const keys = { tags: ['tag'] };
    const tagsOf = (res: { body: any }) => res.body.aspects.globalTags.value.tags;

    it('add appends a new keyed item after the existing ones', async () => {
      const urn = datasetUrn('patch.keyed.add');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] });
      const res = await patch(urn, 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:c', value: { tag: 'urn:li:tag:c' } }],
        arrayPrimaryKeys: keys,
      });
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c' }]);
    });

    it('ignores a from member on an operation that does not take one (RFC 6902), whatever its type', async () => {
      const urn = datasetUrn('patch.keyed.from');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] });
      const res = await patch(urn, 'globalTags', {
        patch: [
          { op: 'test', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a' }, from: [{}] },
          { op: 'add', path: '/tags/urn:li:tag:b', value: { tag: 'urn:li:tag:b' }, from: 7 },
        ],
        arrayPrimaryKeys: keys,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }]);
    });

    it('add on an existing key replaces that item in place', async () => {
      const urn = datasetUrn('patch.keyed.replace');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] });
      const res = await patch(urn, 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a', context: 'new' } }],
        arrayPrimaryKeys: keys,
      });
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a', context: 'new' }, { tag: 'urn:li:tag:b' }]);
    });

    it('remove deletes only that item; removing an absent key changes nothing', async () => {
      const urn = datasetUrn('patch.keyed.remove');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c' }] });
      const res = await patch(urn, 'globalTags', {
        patch: [
          { op: 'remove', path: '/tags/urn:li:tag:b' },
          { op: 'remove', path: '/tags/urn:li:tag:zzz' },
        ],
        arrayPrimaryKeys: keys,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:c' }]);
    });

    it('re-adding a removed key with a new value yields the new value, at the end', async () => {
      const urn = datasetUrn('patch.keyed.readd');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a', context: 'old' }, { tag: 'urn:li:tag:b' }] });
      await patch(urn, 'globalTags', { patch: [{ op: 'remove', path: '/tags/urn:li:tag:a' }], arrayPrimaryKeys: keys });
      const res = await patch(urn, 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a', context: 'new' } }],
        arrayPrimaryKeys: keys,
      });
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:a', context: 'new' }]);
    });

    it('fills the key field from the path when the added value omits it', async () => {
      const urn = datasetUrn('patch.keyed.fill');
      const res = await patch(urn, 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:a', value: { context: 'c' } }],
        arrayPrimaryKeys: keys,
      });
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a', context: 'c' }]);
    });

    it('addresses fields inside a keyed item', async () => {
      const urn = datasetUrn('patch.keyed.deep');
      await write(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] });
      const res = await patch(urn, 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:a/context', value: 'deep' }],
        arrayPrimaryKeys: keys,
      });
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:a', context: 'deep' }]);
    });

    it('an add through an absent keyed item creates it, its key from the path (as DataHub\'s templates do)', async () => {
      const res = await patch(datasetUrn('patch.keyed.absent'), 'globalTags', {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:new/context', value: 'x' }],
        arrayPrimaryKeys: keys,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(tagsOf(res), [{ tag: 'urn:li:tag:new', context: 'x' }]);
    });

    it('answers 400 for a replace inside an absent keyed item', async () => {
      const res = await patch(datasetUrn('patch.keyed.absent.replace'), 'globalTags', {
        patch: [{ op: 'replace', path: '/tags/urn:li:tag:nope/context', value: 'x' }],
        arrayPrimaryKeys: keys,
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'Validation Error',
        message: 'Patch path /tags/urn:li:tag:nope/context: no item urn:li:tag:nope in tags',
      });
    });

    it('supports composite keys, one path segment per key field', async () => {
      const urn = datasetUrn('patch.keyed.composite');
      await write(urn, 'ownership', {
        owners: [
          { owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' },
          { owner: 'urn:li:corpuser:jane', type: 'TECHNICAL_OWNER' },
        ],
      });
      const res = await patch(urn, 'ownership', {
        patch: [{ op: 'remove', path: '/owners/urn:li:corpuser:jane/TECHNICAL_OWNER' }],
        arrayPrimaryKeys: { owners: ['owner', 'type'] },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.aspects.ownership.value.owners, [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }]);
    });
  });
});
