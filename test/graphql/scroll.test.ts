import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Proposal } from '../../src/ingest/proposal.js';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { graphql, latestReads, urnsByFilter, urnsByFilterVariables } from './queries.js';

/** get_urns_by_filter past 10,000 results, and a page's entities read in batches. */

const LIVE = 12_000;
const urnOf = (i: number) => datasetUrn(`scroll.t${String(i).padStart(5, '0')}`, i % 2 === 0 ? 'hive' : 'snowflake');
const deleted = (i: number) => datasetUrn(`scroll.gone${i}`);

describe('GraphQL scroll over 12,000 datasets', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const context = { actor: 'urn:li:corpuser:test', source: 'test' };
    const proposals: Proposal[] = [];
    for (let i = 0; i < LIVE; i++) proposals.push({ urn: urnOf(i), aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: `t${i}` } });
    for (let i = 0; i < 50; i++) proposals.push({ urn: deleted(i), aspect: 'status', changeType: 'UPSERT', value: { removed: true } });
    proposals.push({ urn: 'urn:li:chart:(looker,scroll)', aspect: 'status', changeType: 'UPSERT', value: { removed: false } });
    for (let i = 0; i < proposals.length; i += 2_000) await t.services.ingest.ingest(proposals.slice(i, i + 2_000), context);
  });
  after(() => t.app.close());

  it("gives each URN exactly once to get_urns_by_filter's query, 5,000 a page", async () => {
    const { urns, pages } = await urnsByFilter(t, urnsByFilterVariables({ types: ['DATASET'] }));
    assert.equal(pages, 3);
    assert.equal(urns.length, LIVE);
    assert.equal(new Set(urns).size, LIVE);
    assert.deepEqual([...urns].sort(), Array.from({ length: LIVE }, (_, i) => urnOf(i)).sort());
  });

  it('follows the platform filter the SDK sends as platform.keyword', async () => {
    const hive = { and: [{ field: 'platform.keyword', values: ['urn:li:dataPlatform:hive'], condition: 'EQUAL' }, { field: 'removed', values: ['true'], condition: 'EQUAL', negated: 'true' }] };
    const { urns } = await urnsByFilter(t, urnsByFilterVariables({ types: ['DATASET'], orFilters: [hive], batchSize: 4_000 }));
    assert.equal(urns.length, LIVE / 2);
    assert.ok(urns.every((urn) => urn.includes('dataPlatform:hive,scroll.t')));
  });

  it('includes soft-deleted entities when the SDK asks for all statuses', async () => {
    const { urns } = await urnsByFilter(t, urnsByFilterVariables({ types: ['DATASET'], orFilters: [], includeSoftDeleted: true }));
    assert.equal(new Set(urns).size, LIVE + 50);
  });

  it('reads a page of 5,000 entities in a few batches, not one read each', async () => {
    const { result: { status, body }, reads } = await latestReads(t, () =>
      graphql(
        t,
        `{ scrollAcrossEntities(input: {query: "*", types: [DATASET], count: 5000}) {
             searchResults { entity { urn ... on Dataset { properties { name } platform { name properties { displayName } } } } } } }`,
      ),
    );
    assert.equal(status, 200);
    assert.equal(body.errors, undefined);
    const results = body.data.scrollAcrossEntities.searchResults;
    assert.equal(results.length, 5000);
    assert.deepEqual(results[0].entity.platform, { name: 'hive', properties: { displayName: 'Hive' } });
    // The platforms are named by the URNs, so they are read in the same batch as the datasets,
    // and of each, just the aspects the fields ask (and the key, that says it is stored).
    assert.deepEqual(reads.map((aspects) => [...(aspects ?? ['every aspect'])].sort()), [['dataPlatformInfo', 'dataPlatformKey', 'datasetKey', 'datasetProperties']]);
  });
});
