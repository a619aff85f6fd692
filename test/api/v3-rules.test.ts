import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { brief, defineTest } from '../metatests/fixtures.js';
import { defineProperty, setStatus } from '../structured/fixtures.js';
import { V3, v3Url } from './v3-fixtures.js';

/** The v3 routes go through the same write and read paths as v2: the same rules hold. */

describe('v3 writes and reads follow the catalog\'s rules', () => {
  let t: TestApp;
  let gold: string;
  let gone: string;
  const tagged = datasetUrn('v3rules.tagged');
  before(async () => {
    t = await testApp();
    gold = await defineProperty(t, 'v3rules.gold', { allowedValues: [{ value: { string: 'yes' } }, { value: { string: 'no' } }] });
    gone = await defineProperty(t, 'v3rules.gone');
    const res = await t.call({
      method: 'POST',
      url: `${V3}/dataset?async=false`,
      payload: [{ urn: tagged, structuredProperties: { value: { properties: [{ propertyUrn: gold, values: [{ string: 'yes' }] }, { propertyUrn: gone, values: [{ string: 'x' }] }] } } }],
    });
    assert.equal(res.status, 200, res.raw);
    assert.equal((await setStatus(t, gone, true)).status, 200);
  });
  after(() => t.app.close());

  it('a structured-property value the definition refuses, in a v3 batch, is a 400 naming the property and writes nothing', async () => {
    const other = datasetUrn('v3rules.refused');
    for (const query of ['', '?async=false']) {
      const res = await t.call({
        method: 'POST',
        url: `${V3}/dataset${query}`,
        payload: [
          { urn: other, status: { value: { removed: false } } },
          { urn: other, structuredProperties: { value: { properties: [{ propertyUrn: gold, values: [{ string: 'maybe' }] }] } } },
        ],
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'Validation Error');
      assert.ok(res.body.message.includes(gold), res.body.message);
    }
    const patched = await t.call({
      method: 'PATCH',
      url: `${V3}/dataset`,
      payload: [{ urn: other, structuredProperties: { value: { patch: [{ op: 'add', path: `/properties/${gone}`, value: { propertyUrn: gone, values: [{ string: 'x' }] } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } } } }],
    });
    assert.deepEqual([patched.status, patched.body], [400, { error: 'Validation Error', message: `Cannot apply a soft deleted Structured Property value: ${gone}` }]);
    assert.equal((await t.call({ method: 'HEAD', url: v3Url('dataset', other) })).status, 404);
  });

  it('hides the values of a soft-deleted property on every v3 read', async () => {
    const visible = { properties: [{ propertyUrn: gold, values: [{ string: 'yes' }] }] };
    const entity = await t.call({ method: 'GET', url: `${v3Url('dataset', tagged)}?aspects=structuredProperties` });
    assert.deepEqual(entity.body.structuredProperties.value, visible);
    const aspect = await t.call({ method: 'GET', url: v3Url('dataset', tagged, 'structuredProperties') });
    assert.deepEqual(aspect.body.value, visible);
    const batch = await t.call({ method: 'POST', url: `${V3}/dataset/batchGet`, payload: [{ urn: tagged, structuredProperties: {} }] });
    assert.deepEqual(batch.body[0].structuredProperties.value, visible);
    const generic = await t.call({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: [{ urn: tagged, structuredProperties: {} }] } });
    assert.deepEqual(generic.body.dataset[0].structuredProperties.value, visible);
    const list = await t.call({ method: 'GET', url: `${V3}/dataset?aspects=structuredProperties` });
    assert.deepEqual(list.body.entities.find((e: { urn: string }) => e.urn === tagged).structuredProperties.value, visible);
    const scroll = await t.call({ method: 'POST', url: `${V3}/dataset/scroll`, payload: { aspects: ['structuredProperties'] } });
    assert.deepEqual(scroll.body.entities.find((e: { urn: string }) => e.urn === tagged).structuredProperties.value, visible);
    // A write's answer shows the value as reads do; storage keeps the hidden entry.
    const written = await t.call({
      method: 'POST',
      url: `${v3Url('dataset', tagged, 'structuredProperties')}?createIfNotExists=false`,
      payload: { value: visible },
    });
    assert.deepEqual(written.body.structuredProperties.value, visible);
    const [stored] = await t.services.store.getLatest(tagged, ['structuredProperties']);
    assert.equal((stored.value as { properties: unknown[] }).properties.length, 2);
  });

  it('records every v3 write in the change log with its actor', async () => {
    const start = (await t.call({ method: 'GET', url: '/openapi/v2/events?after=0&limit=1000' })).body.nextAfter as number;
    const urn = datasetUrn('v3rules.events');
    await t.call({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn, globalTags: { value: { tags: [{ tag: 'urn:li:tag:a' }] } } }] });
    await t.call({ method: 'PATCH', url: v3Url('dataset', urn, 'globalTags'), payload: { patch: [{ op: 'add', path: '/tags/0', value: { tag: 'urn:li:tag:b' } }] } });
    await t.call({ method: 'DELETE', url: v3Url('dataset', urn, 'globalTags') });
    const res = await t.call({ method: 'GET', url: `/openapi/v2/events?after=${start}` });
    const tags = res.body.events.filter((e: { urn: string; aspectName: string }) => e.urn === urn && e.aspectName === 'globalTags');
    assert.deepEqual(tags.map((e: { changeType: string }) => e.changeType), ['UPSERT', 'PATCH', 'DELETE']);
    for (const event of tags) assert.equal(event.created.actor, 'urn:li:corpuser:datahub');
    assert.deepEqual(tags[1].aspect, { tags: [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:a' }] });
  });
});

describe('v3 writes start metadata tests on change', () => {
  it('re-evaluates an entity written through v3', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: true });
    try {
      const test = await defineTest(t, 'v3documented', { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] });
      await t.services.scheduler.idle();
      const urn = datasetUrn('v3rules.tests');
      const res = await t.call({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn, datasetProperties: { value: { description: 'described' } } }] });
      assert.equal(res.status, 202);
      await t.services.scheduler.idle();
      const results = await t.call({ method: 'GET', url: v3Url('dataset', urn, 'testResults') });
      assert.deepEqual(brief(results.body.value), { passing: [test], failing: [] });
    } finally {
      await t.app.close();
    }
  });
});

describe('v3 routes and roles', () => {
  const ADMIN = 'urnb_v3-roles-admin-secret-0123456789abcdefghij';
  let t: TestApp;
  const secrets: Record<string, string> = {};
  const ds = datasetUrn('v3rules.roles');
  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 100_000 });
    for (const role of ['viewer', 'editor']) {
      const res = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: `v3${role}`, role } });
      secrets[role] = res.body.token;
    }
    const seed = await t.call({ method: 'POST', url: v3Url('dataset', ds, 'status'), headers: { authorization: `Bearer ${ADMIN}` }, payload: { value: { removed: false } } });
    assert.equal(seed.status, 200);
  });
  after(() => t.app.close());

  const writes: Array<[string, () => InjectOptions]> = [
    ['POST /{type}', () => ({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { removed: false } } }] })],
    ['PATCH /{type}', () => ({ method: 'PATCH', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { patch: [] } } }] })],
    ['POST /generic', () => ({ method: 'POST', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { removed: false } } }] } })],
    ['PATCH /generic', () => ({ method: 'PATCH', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { patch: [] } } }] } })],
    ['POST aspect', () => ({ method: 'POST', url: `${v3Url('dataset', ds, 'status')}?createIfNotExists=false`, payload: { value: { removed: false } } })],
    ['PATCH aspect', () => ({ method: 'PATCH', url: v3Url('dataset', ds, 'status'), payload: { patch: [] } })],
    ['DELETE aspect', () => ({ method: 'DELETE', url: v3Url('dataset', ds, 'globalTags') })],
    ['DELETE entity', () => ({ method: 'DELETE', url: v3Url('dataset', datasetUrn('v3rules.roles.other')) })],
  ];
  const reads: Array<[string, () => InjectOptions]> = [
    ['GET entity', () => ({ method: 'GET', url: v3Url('dataset', ds) })],
    ['GET aspect', () => ({ method: 'GET', url: v3Url('dataset', ds, 'status') })],
    ['HEAD entity', () => ({ method: 'HEAD', url: v3Url('dataset', ds) })],
    ['batchGet', () => ({ method: 'POST', url: `${V3}/dataset/batchGet`, payload: [{ urn: ds }] })],
    ['generic batchGet', () => ({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: [{ urn: ds }] } })],
    ['GET /{type}', () => ({ method: 'GET', url: `${V3}/dataset` })],
    ['POST /{type}/scroll', () => ({ method: 'POST', url: `${V3}/dataset/scroll`, payload: {} })],
  ];
  const as = (role: string, request: InjectOptions) => t.call({ ...request, headers: { ...(request.headers ?? {}), authorization: `Bearer ${secrets[role]}` } });

  it('a viewer may not write through v3: 403, nothing written', async () => {
    for (const [name, request] of writes) {
      const res = await as('viewer', request());
      assert.equal(res.status, 403, name);
      assert.deepEqual(res.body, { error: 'Forbidden', message: 'urn:li:corpuser:v3viewer is unauthorized to write entities.' }, name);
    }
    const status = await t.call({ method: 'GET', url: `${v3Url('dataset', ds, 'status')}?systemMetadata=true`, headers: { authorization: `Bearer ${ADMIN}` } });
    assert.equal(status.body.systemMetadata.version, '1');
  });

  it('a viewer may read through v3, POST reads included; an editor may write, recorded as its actor', async () => {
    for (const [name, request] of reads) assert.ok([200, 204].includes((await as('viewer', request())).status), name);
    for (const [name, request] of writes) assert.ok([200, 202].includes((await as('editor', request())).status), name);
    // The writes above leave status as it was (no new version); this one changes it.
    const change = await as('editor', { method: 'POST', url: `${v3Url('dataset', ds, 'status')}?createIfNotExists=false`, payload: { value: { removed: true } } });
    assert.equal(change.status, 200);
    const status = await t.call({ method: 'GET', url: `${v3Url('dataset', ds, 'status')}?systemMetadata=true`, headers: { authorization: `Bearer ${ADMIN}` } });
    assert.equal(status.body.auditStamp.actor, 'urn:li:corpuser:v3editor');
  });

  it('refuses v3 requests without a token with 401', async () => {
    for (const [name, request] of [...reads, ...writes]) assert.equal((await t.call(request())).status, 401, name);
  });
});
