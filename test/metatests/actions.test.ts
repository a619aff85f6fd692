import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { defineProperty, setStatus } from '../structured/fixtures.js';
import { aspect, defineTest, evaluate, write } from './fixtures.js';

const ALWAYS = [{ property: 'urn', operator: 'exists' }];
const NEVER = [{ property: 'urn', operator: 'equals', value: 'nothing' }];

describe('test actions (push:true)', () => {
  let t: TestApp;
  let n = 0;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  /** A fresh dataset with the given aspects, a test whose passing actions are `actions`, pushed once. */
  async function run(actions: unknown[], aspects: Record<string, unknown> = {}, rules: unknown[] = ALWAYS) {
    const urn = datasetUrn(`actions.${++n}`);
    await write(t, 'dataset', urn, 'status', { removed: false });
    for (const [name, value] of Object.entries(aspects)) await write(t, 'dataset', urn, name, value);
    const test = await defineTest(t, `actions${n}`, { on: { types: ['dataset'], conditions: [{ property: 'urn', operator: 'equals', value: urn }] }, rules, actions: { passing: actions, failing: actions } });
    const res = await evaluate(t, { urn, push: true, testUrns: [test] });
    return { urn, res, test };
  }

  it('ADD_TAGS adds missing tags and keeps the others; REMOVE_TAGS removes them', async () => {
    const { urn } = await run([{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:a', 'urn:li:tag:b'] } }], { globalTags: { tags: [{ tag: 'urn:li:tag:a', context: 'kept' }] } });
    assert.deepEqual(await aspect(t, 'dataset', urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:a', context: 'kept' }, { tag: 'urn:li:tag:b' }] });
    const removed = await run([{ type: 'REMOVE_TAGS', values: ['urn:li:tag:a'] }], { globalTags: { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:c' }] } });
    assert.deepEqual(await aspect(t, 'dataset', removed.urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:c' }] });
  });

  it('ADD_GLOSSARY_TERMS and REMOVE_GLOSSARY_TERMS', async () => {
    const { urn } = await run([{ type: 'ADD_GLOSSARY_TERMS', params: { values: ['urn:li:glossaryTerm:Revenue'] } }]);
    assert.deepEqual((await aspect(t, 'dataset', urn, 'glossaryTerms')).terms, [{ urn: 'urn:li:glossaryTerm:Revenue' }]);
    const removed = await run([{ type: 'REMOVE_GLOSSARY_TERMS', params: { values: ['urn:li:glossaryTerm:Revenue'] } }], {
      glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:jane' } },
    });
    assert.deepEqual((await aspect(t, 'dataset', removed.urn, 'glossaryTerms')).terms, []);
  });

  it('ADD_OWNERS with an ownerType, and REMOVE_OWNERS', async () => {
    const { urn } = await run([{ type: 'ADD_OWNERS', params: { values: ['urn:li:corpGroup:stewards'], ownerType: 'DATA_STEWARD' } }]);
    assert.deepEqual(await aspect(t, 'dataset', urn, 'ownership'), { owners: [{ owner: 'urn:li:corpGroup:stewards', type: 'DATA_STEWARD' }] });
    const removed = await run([{ type: 'REMOVE_OWNERS', params: { values: ['urn:li:corpuser:bob'] } }], {
      ownership: { owners: [{ owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' }, { owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] },
    });
    assert.deepEqual(await aspect(t, 'dataset', removed.urn, 'ownership'), { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
  });

  it('SET_DOMAIN and UNSET_DOMAIN', async () => {
    const { urn } = await run([{ type: 'SET_DOMAIN', params: { values: ['urn:li:domain:finance'] } }], { domains: { domains: ['urn:li:domain:old'] } });
    assert.deepEqual(await aspect(t, 'dataset', urn, 'domains'), { domains: ['urn:li:domain:finance'] });
    const unset = await run([{ type: 'UNSET_DOMAIN' }], { domains: { domains: ['urn:li:domain:old'] } });
    assert.deepEqual(await aspect(t, 'dataset', unset.urn, 'domains'), { domains: [] });
  });

  it('SET_STRUCTURED_PROPERTY (typed by the definition) and UNSET_STRUCTURED_PROPERTY', async () => {
    const tier = await defineProperty(t, 'actions.tier');
    const score = await defineProperty(t, 'actions.score', { valueType: 'urn:li:dataType:datahub.number' });
    const { urn } = await run([
      { type: 'SET_STRUCTURED_PROPERTY', params: { propertyUrn: tier, values: ['gold'] } },
      { type: 'SET_STRUCTURED_PROPERTY', params: { structuredPropertyUrn: score, values: ['42.5'] } },
    ]);
    assert.deepEqual(await aspect(t, 'dataset', urn, 'structuredProperties'), {
      properties: [
        { propertyUrn: tier, values: [{ string: 'gold' }] },
        { propertyUrn: score, values: [{ double: 42.5 }] },
      ],
    });
    const unset = await run([{ type: 'UNSET_STRUCTURED_PROPERTY', params: { propertyUrn: tier } }], {
      structuredProperties: { properties: [{ propertyUrn: tier, values: [{ string: 'gold' }] }] },
    });
    assert.deepEqual(await aspect(t, 'dataset', unset.urn, 'structuredProperties'), { properties: [] });
  });

  it('a test cannot set a soft-deleted property: the push is rejected and writes nothing', async () => {
    const gone = await defineProperty(t, 'actions.gone');
    await setStatus(t, gone, true);
    const { urn, res } = await run([{ type: 'SET_STRUCTURED_PROPERTY', params: { propertyUrn: gone, values: ['x'] } }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'Validation Error', message: `Cannot apply a soft deleted Structured Property value: ${gone}` });
    assert.equal(await aspect(t, 'dataset', urn, 'testResults'), undefined, 'results and actions are one transaction');
  });

  it('DEPRECATE and UN_DEPRECATE, credited to the test', async () => {
    const { urn, test } = await run([{ type: 'DEPRECATE', params: { note: 'Use orders_v2' } }]);
    assert.deepEqual(await aspect(t, 'dataset', urn, 'deprecation'), { deprecated: true, note: 'Use orders_v2', actor: test });
    const undone = await run([{ type: 'UN_DEPRECATE' }], { deprecation: { deprecated: true, note: 'old', actor: 'urn:li:corpuser:jane' } });
    assert.deepEqual(await aspect(t, 'dataset', undone.urn, 'deprecation'), { deprecated: false, note: '', actor: undone.test });
  });

  it("an action's write is attributed to the test (audit stamp and change-log event), the results to whoever evaluated", async () => {
    const { urn, test } = await run([{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:attributed'] } }]);
    const read = async (name: string) => (await t.call({ method: 'GET', url: `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}/${name}?systemMetadata=true` })).body;
    assert.equal((await read('globalTags')).systemMetadata.aspectModified.actor, test);
    assert.equal((await read('testResults')).systemMetadata.aspectModified.actor, 'urn:li:corpuser:datahub');
    const events: Array<{ urn: string; aspectName: string; created: { actor: string } }> = [];
    for (let after = 0; ; ) {
      const page = (await t.call({ method: 'GET', url: `/openapi/v2/events?after=${after}&limit=1000` })).body;
      if (page.events.length === 0) break;
      events.push(...page.events);
      after = page.nextAfter;
    }
    const tagEvent = events.find((e) => e.urn === urn && e.aspectName === 'globalTags');
    assert.equal(tagEvent?.created.actor, test);
  });

  it('failing actions run for failing entities', async () => {
    const { urn } = await run([{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:NeedsWork'] } }], {}, NEVER);
    assert.deepEqual(await aspect(t, 'dataset', urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:NeedsWork' }] });
  });
});
