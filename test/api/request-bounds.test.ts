import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { pythonEmitBatch, restliError } from '../restli/clients.js';
import { V3, v3Url } from './v3-fixtures.js';

/**
 * A small request must not buy unbounded work: each write of an aspect is kept whole (a version,
 * an event, an answer), so a batch of patches to one large aspect is bounded by the request's write
 * budget; and a batch read answers each entity once, however often the body names it.
 */
describe('work one request may ask for', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  // About 420 KB of JSON: 10,000 tags.
  const TAGS = Array.from({ length: 10_000 }, (_, i) => ({ tag: `urn:li:tag:bounds.tag.${String(i).padStart(5, '0')}` }));
  const big = datasetUrn('bounds.big');
  const addTag = (i: number) => ({ op: 'add', path: '/tags/-', value: { tag: `urn:li:tag:bounds.added.${i}` } });
  const refusal = `This request writes more than 64 MiB of aspect values (JSON), the most one request may write; it had got to globalTags of ${big}. Split it into smaller requests`;

  before(async () => {
    const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(big)}/globalTags`, payload: { tags: TAGS } });
    assert.equal(res.status, 200);
  });

  const version = async () => (await t.call({ method: 'GET', url: `${v3Url('dataset', big, 'globalTags')}?systemMetadata=true` })).body.systemMetadata.version;
  const lastEvent = async () => {
    for (let after = 0; ; ) {
      const { events, nextAfter } = (await t.call({ method: 'GET', url: `/openapi/v2/events?after=${after}&limit=1000` })).body;
      if (events.length === 0) return after;
      after = nextAfter;
    }
  };

  /** Sends a request that patches the big aspect too often: refused as `expected`, quickly, with nothing written. */
  async function refusedUnchanged(request: InjectOptions, expected: { status: number; body: unknown }) {
    const [versionBefore, eventBefore] = [await version(), await lastEvent()];
    const started = performance.now();
    const res = await t.call(request);
    const ms = performance.now() - started;
    assert.equal(res.status, expected.status, res.raw.slice(0, 300));
    assert.deepEqual(res.body, expected.body);
    assert.ok(ms < 20_000, `refused after ${ms.toFixed(0)} ms`);
    assert.equal(await version(), versionBefore);
    assert.equal(await lastEvent(), eventBefore);
  }

  const PATCHES = 2000;
  const v3Items = Array.from({ length: PATCHES }, (_, i) => ({ urn: big, globalTags: { value: { patch: [addTag(i)] } } }));

  it(`v3 PATCH /{entityName}: ${PATCHES} patches of one 420 KB aspect in one request get 400, and nothing is written`, async () => {
    await refusedUnchanged({ method: 'PATCH', url: `${V3}/dataset?async=false`, payload: v3Items }, { status: 400, body: { error: 'Validation Error', message: refusal } });
  });

  it(`v3 PATCH /generic: the same, across groups`, async () => {
    const payload = { dataset: v3Items.slice(0, PATCHES / 2), chart: v3Items.slice(PATCHES / 2) };
    await refusedUnchanged({ method: 'PATCH', url: `${V3}/generic`, payload }, { status: 400, body: { error: 'Validation Error', message: refusal } });
  });

  it('Rest.li ingestProposalBatch: the same, in the Rest.li error shape', async () => {
    const mcps = Array.from({ length: PATCHES }, (_, i) => ({
      entityType: 'dataset',
      entityUrn: big,
      changeType: 'PATCH',
      aspectName: 'globalTags',
      aspect: [addTag(i)],
      contentType: 'application/json-patch+json',
    }));
    await refusedUnchanged(pythonEmitBatch(mcps), { status: 400, body: restliError(400, refusal) });
  });

  it('a request under the budget is written whole: 20 patches of the same aspect, one version each', async () => {
    const before = Number(await version());
    const res = await t.call({ method: 'PATCH', url: `${V3}/dataset?async=false`, payload: v3Items.slice(0, 20) });
    assert.equal(res.status, 200);
    // v3 answers each entity once, with its aspects as the request left them.
    assert.equal(res.body.length, 1);
    assert.equal(res.body[0].globalTags.value.tags.length, TAGS.length + 20);
    assert.equal(Number(await version()), before + 20);
  });

  it('generic batchGet: a URN named in 2,000 groups is answered once, in the first group naming it', async () => {
    const groups = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [i === 0 ? 'dataset' : `group${i}`, [{ urn: big, globalTags: {} }]]));
    const res = await t.call({ method: 'POST', url: `${V3}/generic/batchGet`, payload: groups });
    assert.equal(res.status, 200);
    assert.equal(res.body.dataset.length, 1);
    assert.equal(res.body.dataset[0].urn, big);
    assert.ok(Object.entries(res.body).every(([name, found]) => name === 'dataset' || (Array.isArray(found) && found.length === 0)));
    const one = JSON.stringify(res.body.dataset[0]).length;
    assert.ok(res.raw.length < one + 2000 * 20, `the answer is ${res.raw.length} characters for one ${one}-character entity`);
  });

  it('batchGet: a URN named 2,000 times is read and answered once', async () => {
    const items = Array.from({ length: 2000 }, () => ({ urn: big, globalTags: {} }));
    const res = await t.call({ method: 'POST', url: `${V3}/dataset/batchGet`, payload: items });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 1);
    const generic = await t.call({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: items.slice(0, 2), chart: items.slice(2, 4) } });
    assert.deepEqual(Object.keys(generic.body), ['dataset', 'chart']);
    assert.equal(generic.body.dataset.length, 1);
    assert.deepEqual(generic.body.chart, []);
  });
});
