import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { V3, v3Url } from './v3-fixtures.js';

const chart = (name: string) => `urn:li:chart:(looker,${name})`;

describe('POST and PATCH /openapi/v3/entity/{type} (batches)', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const exists = async (urn: string, type = 'dataset') => (await t.call({ method: 'HEAD', url: v3Url(type, urn) })).status === 204;
  const read = async (urn: string, aspect: string, type = 'dataset') => (await t.call({ method: 'GET', url: v3Url(type, urn, aspect) })).body;

  it('answers 202 by default (async=true) with the entities written, committed before the answer', async () => {
    const a = datasetUrn('v3batch.async.a');
    const b = datasetUrn('v3batch.async.b');
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset`,
      payload: [
        { urn: a, status: { value: { removed: false } }, globalTags: { value: { tags: [] } } },
        { urn: b, status: { value: { removed: true } } },
      ],
    });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, [
      { urn: a, status: { value: { removed: false } }, globalTags: { value: { tags: [] } } },
      { urn: b, status: { value: { removed: true } } },
    ]);
    assert.deepEqual(await read(b, 'status'), { value: { removed: true } });
  });

  it('async=false answers 200 with the stored values; systemMetadata=true adds systemMetadata and auditStamp', async () => {
    const urn = datasetUrn('v3batch.sync');
    const res = await t.call({ method: 'POST', url: `${V3}/dataset?async=false&systemMetadata=true`, payload: [{ urn, status: { value: { removed: false } } }] });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 1);
    const { value, systemMetadata, auditStamp } = res.body[0].status;
    assert.deepEqual(value, { removed: false });
    assert.equal(systemMetadata.version, '1');
    assert.deepEqual(auditStamp, systemMetadata.aspectModified);
  });

  it('ignores the path\'s entity name: each URN names its own type, and createIfNotExists is ignored (upsert)', async () => {
    const d = datasetUrn('v3batch.mixed');
    const c = chart('v3batch.mixed');
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset?async=false&createIfNotExists=true&createEntityIfNotExists=true`,
      payload: [{ urn: d, status: { value: { removed: false } } }, { urn: c, status: { value: { removed: false } } }],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((e: { urn: string }) => e.urn), [d, c]);
    const again = await t.call({ method: 'POST', url: `${V3}/anything?async=false&createIfNotExists=true`, payload: [{ urn: c, status: { value: { removed: true } } }] });
    assert.equal(again.status, 200);
    assert.deepEqual(await read(c, 'status', 'chart'), { value: { removed: true } });
  });

  it('skips `scrollId` (as DataHub\'s newer servers do), stores per-aspect systemMetadata and honours headers', async () => {
    const urn = datasetUrn('v3batch.extras');
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset?async=false`,
      payload: [{ urn, scrollId: 'abc', status: { value: { removed: false }, systemMetadata: { runId: 'r1' }, headers: { 'If-Version-Match': '-1' } } }],
    });
    assert.equal(res.status, 200, res.raw);
    const sm = await t.call({ method: 'GET', url: `${v3Url('dataset', urn, 'status')}?systemMetadata=true` });
    assert.equal(sm.body.systemMetadata.runId, 'r1');
  });

  it('answers 412 Precondition Error when an aspect\'s If-Version-Match does not hold, sync or async, writing nothing', async () => {
    const urn = datasetUrn('v3batch.precondition');
    const other = datasetUrn('v3batch.precondition.other');
    for (const query of ['?async=false', '']) {
      const res = await t.call({
        method: 'POST',
        url: `${V3}/dataset${query}`,
        payload: [{ urn: other, status: { value: { removed: false } } }, { urn, status: { value: { removed: false }, headers: { 'If-Version-Match': '-10000' } } }],
      });
      assert.equal(res.status, 412, query);
      assert.deepEqual(res.body, { error: 'Precondition Error', message: `Expected version -10000, actual version -1 for aspect status of ${urn}` });
    }
    assert.equal(await exists(other), false);
  });

  it('checks the whole batch before answering, async or not: one bad item is a 400 and nothing is written', async () => {
    const good = datasetUrn('v3batch.good');
    const cases: Array<[unknown, object]> = [
      [
        [{ urn: good, status: { value: { removed: false } } }, { urn: datasetUrn('v3batch.bad'), INVALID: { value: { removed: false } } }],
        { error: 'Validation Error', message: 'Unknown aspect INVALID for entity type dataset' },
      ],
      [
        [{ urn: good, status: { value: { removed: false } } }, { urn: 'urn:li:notAType:(urn:li:dataPlatform:test,bad_fabric_orders,PROD)', status: { value: { removed: false } } }],
        { error: 'Invalid urn!: urn:li:notAType:(urn:li:dataPlatform:test,bad_fabric_orders,PROD)' },
      ],
      [
        [{ urn: good, status: { value: { removed: false } } }, { urn: 'urn:li:dataset:(urn:li:dataPlatform:test,bad_fabric_orders,INVALID)', status: { value: { removed: false } } }],
        { error: 'Invalid urn!: urn:li:dataset:(urn:li:dataPlatform:test,bad_fabric_orders,INVALID)' },
      ],
      [[{ urn: good, status: { value: { removed: 'no' } } }], { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' }],
      [[{ urn: good, status: { removed: false } }], { error: 'Validation Error', message: '[0].status: expected {"value": …}' }],
      [[{ urn: good }, { status: { value: {} } }], { error: 'Validation Error', message: '[1]: missing `urn` field' }],
      [[{ urn: good }, 'x'], { error: 'Validation Error', message: '[1] must be an object: {"urn": …, "<aspect>": {"value": …}}' }],
      [{ urn: good }, { error: 'Validation Error', message: 'The body must be a JSON array of entities: [{"urn": …, "<aspect>": {"value": …}}, …]' }],
    ];
    for (const [payload, body] of cases) {
      for (const query of ['', '?async=false', '?async=true']) {
        const res = await t.call({ method: 'POST', url: `${V3}/dataset${query}`, payload: payload as object });
        assert.equal(res.status, 400, `${JSON.stringify(payload)} ${query}`);
        assert.deepEqual(res.body, body);
      }
    }
    assert.equal(await exists(good), false);
  });

  it('answers 200 [] to an empty batch', async () => {
    const res = await t.call({ method: 'POST', url: `${V3}/dataset?async=false`, payload: [] });
    assert.deepEqual([res.status, res.body], [200, []]);
  });

  it('PATCH answers 202 with no body by default, and writes', async () => {
    const urn = datasetUrn('v3batch.patch.async');
    const res = await t.call({ method: 'PATCH', url: `${V3}/dataset`, payload: [{ urn, datasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'd' }] } } }] });
    assert.equal(res.status, 202);
    assert.equal(res.raw, '');
    assert.deepEqual(await read(urn, 'datasetProperties'), { value: { customProperties: {}, tags: [], description: 'd' } });
  });

  it('PATCH with async=false answers 200 with the patched aspects; values may be bare op arrays, with arrayPrimaryKeys', async () => {
    const urn = datasetUrn('v3batch.patch.sync');
    const c = chart('v3batch.patch');
    const res = await t.call({
      method: 'PATCH',
      url: `${V3}/dataset?async=false`,
      headers: { 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([
        {
          urn,
          datasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'one' }] } },
          globalTags: { value: { patch: [{ op: 'add', path: '/tags/urn:li:tag:x', value: { tag: 'urn:li:tag:x' } }], arrayPrimaryKeys: { tags: ['tag'] } } },
        },
        { urn: c, status: { value: [{ op: 'add', path: '/removed', value: true }] } },
      ]),
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, [
      {
        urn,
        // A new entity: its key and default aspects too, as in DataHub's "Patch dataset with description" fixture.
        datasetKey: { value: { platform: 'urn:li:dataPlatform:hive', name: 'v3batch.patch.sync', origin: 'PROD' } },
        browsePathsV2: { value: { path: [{ id: 'Default' }] } },
        dataPlatformInstance: { value: { platform: 'urn:li:dataPlatform:hive' } },
        datasetProperties: { value: { customProperties: {}, tags: [], description: 'one' } },
        globalTags: { value: { tags: [{ tag: 'urn:li:tag:x' }] } },
      },
      { urn: c, chartKey: { value: { dashboardTool: 'looker', chartId: 'v3batch.patch' } }, browsePathsV2: { value: { path: [{ id: 'Default' }] } }, status: { value: { removed: true } } },
    ]);
  });

  it('PATCH refuses a value without `patch`, a patch that does not apply, or a stale If-Version-Match, writing nothing', async () => {
    const urn = datasetUrn('v3batch.patch.refused');
    const other = datasetUrn('v3batch.patch.other');
    const first = { urn: other, status: { value: { patch: [{ op: 'add', path: '/removed', value: true }] } } };
    const cases: Array<[unknown, number, object]> = [
      [{ urn, status: { value: { removed: true } } }, 400, { error: 'Validation Error', message: '[1].status.value: Patch body must be an object with a `patch` array of operations' }],
      [{ urn, status: { value: { patch: [{ op: 'remove', path: '/nope' }] } } }, 400, { error: 'Validation Error', message: 'Patch operation 0 (remove /nope) cannot be applied: Cannot perform the operation at a path that does not exist' }],
      [{ urn, status: { value: { patch: [] }, headers: { 'If-Version-Match': '3' } } }, 412, { error: 'Precondition Error', message: `Expected version 3, actual version -1 for aspect status of ${urn}` }],
    ];
    for (const [item, status, body] of cases) {
      const res = await t.call({ method: 'PATCH', url: `${V3}/dataset`, payload: [first, item] as object });
      assert.equal(res.status, status, JSON.stringify(item));
      assert.deepEqual(res.body, body);
    }
    assert.equal(await exists(other), false);
  });
});

describe('/openapi/v3/entity/generic (entities grouped by type)', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const d = datasetUrn('generic_shipments', 'test');
  const c = chart('shipments_per_day');

  it('POST writes every group in one transaction and answers per group (200 with async=false)', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V3}/generic?async=false`,
      payload: {
        dataset: [{ urn: d, datasetProperties: { value: { name: 'generic_shipments', customProperties: {}, tags: [] } }, status: { value: { removed: false } } }],
        chart: [{ urn: c, status: { value: { removed: false } } }],
      },
    });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, {
      dataset: [
        {
          urn: d,
          datasetKey: { value: { platform: 'urn:li:dataPlatform:test', name: 'generic_shipments', origin: 'PROD' } },
          browsePathsV2: { value: { path: [{ id: 'Default' }] } },
          dataPlatformInstance: { value: { platform: 'urn:li:dataPlatform:test' } },
          datasetProperties: { value: { name: 'generic_shipments', customProperties: {}, tags: [] } },
          status: { value: { removed: false } },
        },
      ],
      chart: [{ urn: c, chartKey: { value: { dashboardTool: 'looker', chartId: 'shipments_per_day' } }, browsePathsV2: { value: { path: [{ id: 'Default' }] } }, status: { value: { removed: false } } }],
    });
  });

  it('POST answers 202 with the same shape by default', async () => {
    const res = await t.call({ method: 'POST', url: `${V3}/generic`, payload: { chart: [{ urn: c, status: { value: { removed: false } } }] } });
    assert.deepEqual([res.status, res.body], [202, { chart: [{ urn: c, status: { value: { removed: false } } }] }]);
  });

  it('PATCH answers per group with async=false, and empty groups with 202 by default', async () => {
    const sync = await t.call({
      method: 'PATCH',
      url: `${V3}/generic?async=false`,
      payload: { dataset: [{ urn: d, datasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'One row per parcel' }] } } }] },
    });
    assert.equal(sync.status, 200);
    assert.deepEqual(sync.body, { dataset: [{ urn: d, datasetProperties: { value: { name: 'generic_shipments', customProperties: {}, tags: [], description: 'One row per parcel' } } }] });
    const async = await t.call({ method: 'PATCH', url: `${V3}/generic`, payload: { chart: [{ urn: c, status: { value: { patch: [{ op: 'add', path: '/removed', value: true }] } } }] } });
    assert.deepEqual([async.status, async.body], [202, { chart: [] }]);
  });

  it('refuses a body that is not {type: [entity…]}, or a bad item in any group, writing nothing', async () => {
    const fresh = chart('generic.fresh');
    const write = { urn: fresh, status: { value: { removed: false } } };
    const patch = { urn: fresh, status: { value: { patch: [{ op: 'add', path: '/removed', value: false }] } } };
    const cases: Array<['POST' | 'PATCH', unknown, string]> = [
      ['POST', [], 'The body must be a JSON object: {"<entity type>": [entity…], …}'],
      ['PATCH', [], 'The body must be a JSON object: {"<entity type>": [entity…], …}'],
      ['POST', { chart: { urn: fresh } }, "Value of property 'chart' must be an array"],
      ['PATCH', { chart: { urn: fresh } }, "Value of property 'chart' must be an array"],
      ['POST', { chart: [write], dataset: [{ urn: d, nonsense: { value: {} } }] }, 'Unknown aspect nonsense for entity type dataset'],
      ['POST', { chart: [write], dataset: [{ urn: d, status: {} }] }, 'dataset[0].status: expected {"value": …}'],
      ['PATCH', { chart: [patch], dataset: [{ urn: d, status: { value: { removed: true } } }] }, 'dataset[0].status.value: Patch body must be an object with a `patch` array of operations'],
    ];
    for (const [method, payload, message] of cases) {
      const res = await t.call({ method, url: `${V3}/generic?async=false`, payload: payload as object });
      assert.equal(res.status, 400, `${method} ${JSON.stringify(payload)}`);
      assert.deepEqual(res.body, { error: 'Validation Error', message }, method);
    }
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('chart', fresh) })).status, 404);
  });

  it('batchGet reads per group; GET and DELETE /generic/{urn} work on any URN', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${V3}/generic/batchGet?systemMetadata=false`,
      payload: { dataset: [{ urn: d, datasetProperties: { headers: {} } }], chart: [{ urn: c, status: { headers: {} } }] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      dataset: [{ urn: d, datasetProperties: { value: { name: 'generic_shipments', customProperties: {}, tags: [], description: 'One row per parcel' } } }],
      chart: [{ urn: c, status: { value: { removed: true } } }],
    });
    const get = await t.call({ method: 'GET', url: `${v3Url('generic', d)}?aspects=datasetProperties` });
    assert.deepEqual(get.body, { urn: d, datasetProperties: res.body.dataset[0].datasetProperties });
    for (const urn of [d, c]) assert.equal((await t.call({ method: 'DELETE', url: v3Url('generic', urn) })).status, 200);
    const after = await t.call({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: [{ urn: d }], chart: [{ urn: c }] } });
    assert.deepEqual(after.body, { dataset: [], chart: [] });
  });
});

describe('POST /openapi/v3/entity/{type}/batchGet', () => {
  let t: TestApp;
  const a = datasetUrn('v3batchget.a');
  const b = datasetUrn('v3batchget.b');
  before(async () => {
    t = await testApp();
    const write = async (urn: string, aspect: string, value: unknown) =>
      assert.equal((await t.call({ method: 'POST', url: `${v3Url('dataset', urn, aspect)}?createIfNotExists=false`, payload: { value } })).status, 200);
    await write(a, 'status', { removed: false });
    await write(a, 'globalTags', { tags: [{ tag: 'urn:li:tag:one' }] });
    await write(a, 'globalTags', { tags: [{ tag: 'urn:li:tag:two' }] });
    await write(b, 'status', { removed: true });
  });
  after(() => t.app.close());

  const batchGet = (payload: unknown, query = '') => t.call({ method: 'POST', url: `${V3}/dataset/batchGet${query}`, payload: payload as object });

  it('reads the aspects asked for, in the order asked, leaving out entities without any of them', async () => {
    const res = await batchGet([{ urn: b, status: {} }, { urn: a, status: {}, globaltags: {} }, { urn: datasetUrn('v3batchget.missing') }, { urn: b, globalTags: {} }]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { urn: b, status: { value: { removed: true } } },
      { urn: a, status: { value: { removed: false } }, globalTags: { value: { tags: [{ tag: 'urn:li:tag:two' }] } } },
    ]);
    const none = await batchGet([{ urn: b, globalTags: {} }]);
    assert.deepEqual(none.body, []);
  });

  it('reads every aspect when none (or none known) is named', async () => {
    const res = await batchGet([{ urn: b }, { urn: a, nonsense: {} }]);
    assert.deepEqual(res.body.map((e: object) => Object.keys(e).sort()), [
      ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'status', 'urn'],
      ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags', 'status', 'urn'],
    ]);
  });

  it('reads the version an aspect\'s If-Version-Match header names', async () => {
    const res = await batchGet([{ urn: a, globalTags: { headers: { 'If-Version-Match': '1' } }, status: { headers: { 'If-Version-Match': '0' } } }], '?systemMetadata=true');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body[0].globalTags.value, { tags: [{ tag: 'urn:li:tag:one' }] });
    assert.equal(res.body[0].globalTags.systemMetadata.version, '1');
    assert.deepEqual(res.body[0].globalTags.auditStamp, res.body[0].globalTags.systemMetadata.aspectModified);
    assert.deepEqual(res.body[0].status.value, { removed: false });
    const beyond = await batchGet([{ urn: a, globalTags: { headers: { 'If-Version-Match': '9' } } }]);
    assert.deepEqual(beyond.body, []);
  });

  it('ignores the path\'s entity name', async () => {
    const res = await t.call({ method: 'POST', url: `${V3}/chart/batchGet`, payload: [{ urn: b, status: {} }] });
    assert.deepEqual(res.body, [{ urn: b, status: { value: { removed: true } } }]);
  });

  it('answers 400 for a body of the wrong shape, an invalid URN or a bad version', async () => {
    const cases: Array<[unknown, object]> = [
      [{ urn: a }, { error: 'Validation Error', message: 'The body must be a JSON array: [{"urn": …, "<aspect>"?: {}}, …]' }],
      [[{ status: {} }], { error: 'Validation Error', message: '[0]: missing `urn` field' }],
      [[{ urn: 'urn:li:dataset:(x)' }], { error: 'Invalid urn!: urn:li:dataset:(x)' }],
      [[{ urn: a, status: 'x' }], { error: 'Validation Error', message: '[0].status must be an object: {} or {"headers": {"If-Version-Match": "<version>"}}' }],
      [[{ urn: a, status: { headers: { 'If-Version-Match': '-1' } } }], { error: 'Validation Error', message: '[0].status.headers.If-Version-Match must be a version (0 or more), got "-1"' }],
    ];
    for (const [payload, body] of cases) {
      const res = await batchGet(payload);
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.deepEqual(res.body, body);
    }
  });
});
