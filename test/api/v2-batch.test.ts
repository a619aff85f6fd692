import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

describe('POST /openapi/v2/entity/{type} (batch)', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  const batch = (payload: unknown, query = '') => t.call({ method: 'POST', url: `${V2}/dataset${query}`, payload: payload as object });
  const exists = async (urn: string) => (await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status === 204;

  it('answers 202 with the URNs by default (async) and has committed the writes', async () => {
    const a = datasetUrn('batch.a');
    const b = datasetUrn('batch.b');
    const res = await batch([
      { urn: a, aspects: { status: { value: { removed: false } } } },
      { urn: b, aspects: { status: { value: { removed: true } }, globalTags: { value: { tags: [] } } } },
    ]);
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, [{ urn: a }, { urn: b }]);
    const stored = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(b)}?aspects=status,globalTags` });
    assert.deepEqual(stored.body.aspects, { status: { value: { removed: true } }, globalTags: { value: { tags: [] } } });
  });

  it('async=false answers 200 with the stored values of the aspects written, per URN, and what a new entity was created with', async () => {
    const a = datasetUrn('batch.sync');
    const res = await batch([{ urn: a, aspects: { status: { value: { removed: false } } } }], '?async=false');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      {
        urn: a,
        aspects: {
          datasetKey: { value: { platform: 'urn:li:dataPlatform:hive', name: 'batch.sync', origin: 'PROD' } },
          browsePathsV2: { value: { path: [{ id: 'Default' }] } },
          dataPlatformInstance: { value: { platform: 'urn:li:dataPlatform:hive' } },
          status: { value: { removed: false } },
        },
      },
    ]);
    const again = await batch([{ urn: a, aspects: { status: { value: { removed: true } } } }], '?async=false');
    assert.deepEqual(again.body, [{ urn: a, aspects: { status: { value: { removed: true } } } }], 'an existing entity: only what was written');
  });

  it('keeps client systemMetadata runId, lastObserved and properties', async () => {
    const a = datasetUrn('batch.sm');
    await batch([
      {
        urn: a,
        aspects: { status: { value: { removed: false }, systemMetadata: { runId: 'run-1', lastObserved: 1700000000000, properties: { k: 'v' } } } },
      },
    ]);
    const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(a)}/status?systemMetadata=true` });
    assert.equal(res.body.systemMetadata.runId, 'run-1');
    assert.equal(res.body.systemMetadata.lastObserved, 1700000000000);
    assert.deepEqual(res.body.systemMetadata.properties, { k: 'v', eventSource: 'OPENAPI' });
  });

  it('writes nothing when one item has an invalid value', async () => {
    const good = datasetUrn('batch.tx.good');
    const res = await batch([
      { urn: good, aspects: { status: { value: { removed: false } } } },
      { urn: datasetUrn('batch.tx.bad'), aspects: { status: { value: { removed: 'no' } } } },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Aspect status is invalid: field removed must be boolean' });
    assert.equal(await exists(good), false);
  });

  it('writes nothing when one item has an invalid URN, and names it', async () => {
    const good = datasetUrn('batch.tx.good2');
    const bad = 'urn:li:dataset:(urn:li:dataPlatform:test,bad_fabric_orders,INVALID)';
    const res = await batch([
      { urn: good, aspects: { status: { value: { removed: false } } } },
      { urn: bad, aspects: { status: { value: { removed: false } } } },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` });
    assert.equal(await exists(good), false);
  });

  it('reports an unknown entity type in a body URN as an invalid URN, before the unknown aspect', async () => {
    const bad = 'urn:li:notAType:(urn:li:dataPlatform:test,bad_fabric_orders,PROD)';
    const res = await batch([{ urn: bad, aspects: { INVALID: { value: {} } } }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: `Invalid urn!: ${bad}` });
  });

  it('rejects an unknown aspect with 400 and writes nothing', async () => {
    const good = datasetUrn('batch.tx.aspect');
    const res = await batch([{ urn: good, aspects: { status: { value: { removed: false } }, INVALID: { value: {} } } }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'Unknown aspect INVALID for entity type dataset' });
    assert.equal(await exists(good), false);
  });

  it('writes nothing when one item fails its If-Version-Match precondition (412)', async () => {
    const good = datasetUrn('batch.tx.precondition');
    const res = await batch([
      { urn: good, aspects: { status: { value: { removed: false } } } },
      { urn: datasetUrn('batch.tx.pre2'), aspects: { status: { value: { removed: false }, headers: { 'If-Version-Match': '-10000' } } } },
    ]);
    assert.equal(res.status, 412);
    assert.equal(res.body.error, 'Precondition Error');
    assert.equal(await exists(good), false);
  });

  const malformed: Array<[string, unknown, string]> = [
    ['a body that is not an array', { urn: 'x' }, 'The body must be a JSON array of entities'],
    ['an item without urn', [{ aspects: {} }], '[0]: missing `urn` field'],
    ['an item without aspects', [{ urn: datasetUrn('x') }], '[0]: missing `aspects` field'],
    ['an aspect without a value wrapper', [{ urn: datasetUrn('x'), aspects: { status: { removed: true } } }], '[0].aspects.status: expected {"value": …}'],
    [
      'systemMetadata of the wrong type',
      [{ urn: datasetUrn('x'), aspects: { status: { value: { removed: true }, systemMetadata: { runId: 5 } } } }],
      '[0].aspects.status.systemMetadata.runId must be a string',
    ],
  ];
  for (const [why, body, message] of malformed) {
    it(`answers 400 for ${why}`, async () => {
      const res = await batch(body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message });
    });
  }

  it('rejects a URN of another entity type than the path', async () => {
    const res = await batch([{ urn: 'urn:li:chart:(looker,c1)', aspects: { status: { value: { removed: false } } } }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: 'The URN urn:li:chart:(looker,c1) is not of entity type dataset' });
  });

  it('applies several writes of one aspect in one batch as successive versions', async () => {
    const a = datasetUrn('batch.twice');
    await batch([
      { urn: a, aspects: { status: { value: { removed: false } } } },
      { urn: a, aspects: { status: { value: { removed: true } } } },
    ]);
    const latest = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(a)}/status?systemMetadata=true` });
    assert.deepEqual(latest.body.value, { removed: true });
    assert.equal(latest.body.systemMetadata.version, '2');
    const first = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(a)}/status?version=1` });
    assert.deepEqual(first.body, { value: { removed: false } });
  });
});
