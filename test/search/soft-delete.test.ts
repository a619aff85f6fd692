import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, filtered, list, listUrns, pagesOf, patch, remove, scroll, search, sorted, tag, where, write, writeDatasets } from './fixtures.js';

/** Soft-deleted entities (status.removed = true) are hidden from search unless asked for. */

// In URN order: L1, R1, L2, R2, L3.
const L1 = datasetUrn('soft.a.live');
const R1 = datasetUrn('soft.b.removed');
const L2 = datasetUrn('soft.c.live');
const R2 = datasetUrn('soft.d.removed');
const L3 = datasetUrn('soft.e.nostatus');
const LIVE = [L1, L2, L3];
const EVERY = [L1, R1, L2, R2, L3];

describe('search: soft-deleted entities', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await writeDatasets(t, [
      [L1, { name: 'harbour live', tags: [tag('dock')], removed: false }],
      [R1, { name: 'harbour removed', tags: [tag('dock')], removed: true }],
      [L2, { name: 'alpha harbour', tags: [tag('dock')], removed: false }],
      [R2, { name: 'aaa harbour', removed: true }],
      // No status aspect at all: not removed.
      [L3, { name: 'harbour without status', tags: [tag('dock')] }],
    ]);
  });
  after(() => t.app.close());

  it('hides entities whose status.removed is true unless includeSoftDelete=true', async () => {
    const hidden = await list(t, 'dataset', { count: 100 });
    assert.equal(hidden.status, 200);
    assert.deepEqual(hidden.body.results.map((r: { urn: string }) => r.urn), LIVE);
    assert.equal(hidden.body.totalCount, 3);
    const shown = await list(t, 'dataset', { count: 100, includeSoftDelete: true });
    assert.deepEqual(shown.body.results.map((r: { urn: string }) => r.urn), EVERY);
    assert.equal(shown.body.totalCount, 5);
  });

  it('includeSoftDelete=false is the default', async () => {
    assert.deepEqual(await listUrns(t, 'dataset', { includeSoftDelete: false }), LIVE);
  });

  it('hides them from field queries', async () => {
    assert.deepEqual(await search(t, 'tags:dock'), [L1, L2, L3]);
    assert.deepEqual(await search(t, 'tags:dock', { includeSoftDelete: true }), [L1, R1, L2, L3]);
  });

  it('hides them from free-word (ranked) queries', async () => {
    assert.deepEqual(sorted(await listUrns(t, 'dataset', { query: 'harbour' })), LIVE);
    assert.deepEqual(sorted(await listUrns(t, 'dataset', { query: 'harbour', includeSoftDelete: true })), EVERY);
    const res = await list(t, 'dataset', { query: 'harbour', count: 1 });
    assert.equal(res.body.totalCount, 3);
  });

  it('hides them from results sorted by name', async () => {
    assert.deepEqual(await listUrns(t, 'dataset', { sortCriteria: 'name' }), [L2, L1, L3]);
    assert.deepEqual(await listUrns(t, 'dataset', { sortCriteria: 'name', includeSoftDelete: true }), [R2, L2, L1, R1, L3]);
  });

  it('pages over the visible entities only', async () => {
    const { pages, totals } = await pagesOf(t, 'dataset', { count: 2 });
    assert.deepEqual(pages, [[L1, L2], [L3]]);
    assert.deepEqual(totals, [3, 3]);
  });

  it('hides them from the v2 and v3 scrolls unless includeSoftDelete=true', async () => {
    const v2 = await scroll(t, { entities: ['dataset'] }, { count: 100 });
    assert.deepEqual(v2.body.results.map((r: { urn: string }) => r.urn), LIVE);
    assert.equal(v2.body.totalCount, 3);
    const v3 = await scroll(t, { entities: ['dataset'] }, { count: 100 }, 3);
    assert.deepEqual(v3.body.entities.map((e: { urn: string }) => e.urn), LIVE);
    assert.equal(v3.body.totalCount, 3);
    const v3all = await scroll(t, { entities: ['dataset'] }, { count: 100, includeSoftDelete: true }, 3);
    assert.deepEqual(v3all.body.entities.map((e: { urn: string }) => e.urn), EVERY);
    assert.equal(v3all.body.totalCount, 5);
  });

  it('hides them from filtered scrolls', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'tags', values: [tag('dock')] })), [L1, L2, L3]);
    assert.deepEqual(await filtered(t, where({ field: 'tags', values: [tag('dock')] }), { includeSoftDelete: true }), [L1, R1, L2, L3]);
  });

  it('removed:true in a query finds the soft-deleted entities without includeSoftDelete', async () => {
    assert.deepEqual(await search(t, 'removed:true'), [R1, R2]);
    assert.deepEqual(await search(t, 'removed:true AND tags:dock'), [R1]);
  });

  it('removed:false finds the live ones, with or without a status aspect', async () => {
    assert.deepEqual(await search(t, 'removed:false'), LIVE);
    assert.deepEqual(await search(t, 'removed:false', { includeSoftDelete: true }), LIVE);
  });

  it('NOT removed:true finds the live ones', async () => {
    assert.deepEqual(await search(t, 'NOT removed:true'), LIVE);
  });

  it('a filter on removed finds the soft-deleted entities without includeSoftDelete', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'removed', condition: 'EQUAL', values: ['true'] })), [R1, R2]);
    assert.deepEqual(await filtered(t, where({ field: 'removed', values: ['true'], negated: true })), LIVE);
  });

  it('a filter naming removed with both values shows every entity', async () => {
    assert.deepEqual(await filtered(t, where({ field: 'removed', condition: 'IN', values: ['true', 'false'] })), EVERY);
  });

  it('removed:true OR removed:false shows every entity', async () => {
    assert.deepEqual(await search(t, 'removed:true OR removed:false'), EVERY);
  });

  it('shows an entity again once restored, and hides one once soft-deleted', async () => {
    const urn = datasetUrn('soft.toggle');
    await write(t, 'dataset', urn, 'datasetProperties', { name: 'toggle' });
    assert.deepEqual(await search(t, 'toggle'), [urn]);
    await write(t, 'dataset', urn, 'status', { removed: true });
    assert.deepEqual(await search(t, 'toggle'), []);
    assert.deepEqual(await search(t, 'name:toggle'), []);
    assert.deepEqual(await search(t, 'toggle', { includeSoftDelete: true }), [urn]);
    await write(t, 'dataset', urn, 'status', { removed: false });
    assert.deepEqual(await search(t, 'toggle'), [urn]);
    assert.deepEqual(await search(t, 'removed:true AND toggle'), []);
  });

  it('shows an entity again when its status aspect is deleted', async () => {
    const urn = datasetUrn('soft.unstatus');
    await write(t, 'dataset', urn, 'datasetProperties', { name: 'unstatus' });
    await write(t, 'dataset', urn, 'status', { removed: true });
    assert.deepEqual(await search(t, 'unstatus'), []);
    await remove(t, 'dataset', urn, 'status');
    assert.deepEqual(await search(t, 'unstatus'), [urn]);
  });

  it('follows a soft delete made by JSON PATCH', async () => {
    const urn = datasetUrn('soft.patched');
    await write(t, 'dataset', urn, 'datasetProperties', { name: 'patched' });
    await patch(t, 'dataset', urn, 'status', [{ op: 'add', path: '/removed', value: true }]);
    assert.deepEqual(await search(t, 'patched'), []);
    assert.deepEqual(await search(t, 'removed:true AND patched'), [urn]);
  });

  it('hides soft-deleted entities of other types in a scroll of all types', async () => {
    const chart = 'urn:li:chart:(looker,soft.chart)';
    await write(t, 'chart', chart, 'globalTags', { tags: [{ tag: tag('dock') }] });
    await write(t, 'chart', chart, 'status', { removed: true });
    const res = await scroll(t, { filter: where({ field: 'tags', values: [tag('dock')] }) }, { count: 100 });
    assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), [L1, L2, L3]);
    const all = await scroll(t, { filter: where({ field: 'tags', values: [tag('dock')] }) }, { count: 100, includeSoftDelete: true });
    assert.deepEqual(all.body.results.map((r: { urn: string }) => r.urn), [chart, L1, R1, L2, L3]);
  });
});
