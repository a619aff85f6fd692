import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, domain, duplicates, group, list, listUrns, pagesOf, scroll, tag, term, user, writeDatasets } from './fixtures.js';

/**
 * Order by relevance: with free words in the query and no explicit sort. A word found in the name or
 * qualified name scores 4; in tags, owners, glossary terms, domains, platform, subtypes or the URN's
 * words 2; in a description or field path 1; summed over the words; ties in the order the entities
 * were created (so a scroll stays stable and only a page's URNs are looked up).
 *
 * Each query word below is in one field of each entity, and in no URN, so the score does not depend
 * on whether a word found in several fields counts once or for each.
 */

const rel = (name: string) => datasetUrn(`rel.${name}`);

describe('search: relevance', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  /** Free-word search without a sort: relevance order. */
  const ranked = (query: string, params: Record<string, string | number> = {}) => listUrns(t, 'dataset', { query, ...params });

  it('ranks a word in the name above one in tags above one in the description', async () => {
    // Written in URN order, so creation order and URN order agree: only the fields decide.
    await writeDatasets(t, [
      [rel('a1'), { description: 'about zephyr winds' }],
      [rel('a2'), { tags: [tag('zephyr')] }],
      [rel('a3'), { name: 'zephyr' }],
    ]);
    assert.deepEqual(await ranked('zephyr'), [rel('a3'), rel('a2'), rel('a1')]);
  });

  it('ranks a word in the qualified name like one in the name', async () => {
    await writeDatasets(t, [
      [rel('b1'), { tags: [tag('boreas')] }],
      [rel('b2'), { qualifiedName: 'db.boreas' }],
    ]);
    assert.deepEqual(await ranked('boreas'), [rel('b2'), rel('b1')]);
  });

  it('ranks owners, glossary terms, domains and subtypes above field paths', async () => {
    await writeDatasets(t, [
      [rel('c1'), { fieldPaths: ['notus'] }],
      [rel('c2'), { owners: [user('notus')] }],
      [rel('c3'), { fieldPaths: ['notus_id'] }],
      [rel('c4'), { terms: [term('Notus')] }],
      [rel('c5'), { domains: [domain('notus')] }],
      [rel('c6'), { subtypes: ['Notus'] }],
      [rel('c7'), { owners: [group('notus')] }],
    ]);
    assert.deepEqual(await ranked('notus'), [rel('c2'), rel('c4'), rel('c5'), rel('c6'), rel('c7'), rel('c1'), rel('c3')]);
  });

  it('ranks a word of the URN above one in the description', async () => {
    await writeDatasets(t, [
      [rel('d1'), { description: 'fed by eurus' }],
      [datasetUrn('rel.eurus_feed'), { description: 'the feed' }],
    ]);
    assert.deepEqual(await ranked('eurus'), [datasetUrn('rel.eurus_feed'), rel('d1')]);
  });

  it('sums the scores of the words', async () => {
    // e1: 4 + 1 = 5; e2: 2 + 2 = 4; e3: 1 + 4 = 5; e4: 1 + 1 = 2.
    await writeDatasets(t, [
      [rel('e1'), { name: 'aquilo', description: 'with auster' }],
      [rel('e2'), { tags: [tag('aquilo'), tag('auster')] }],
      [rel('e3'), { name: 'auster', description: 'with aquilo' }],
      [rel('e4'), { description: 'aquilo and auster' }],
    ]);
    assert.deepEqual(await ranked('aquilo auster'), [rel('e1'), rel('e3'), rel('e2'), rel('e4')]);
  });

  it('breaks ties by the order the entities were created in, not by URN', async () => {
    await writeDatasets(t, [
      [rel('f3'), { description: 'caurus' }],
      [rel('f1'), { description: 'caurus' }],
      [rel('f2'), { description: 'caurus' }],
    ]);
    // Updating an entity later does not move it among its ties.
    await writeDatasets(t, [[rel('f3'), { description: 'caurus again' }]]);
    assert.deepEqual(await ranked('caurus'), [rel('f3'), rel('f1'), rel('f2')]);
  });

  it('an explicit sort wins over relevance', async () => {
    await writeDatasets(t, [
      [rel('g1'), { description: 'favonius' }],
      [rel('g2'), { name: 'favonius' }],
    ]);
    assert.deepEqual(await ranked('favonius', { sort: 'urn' }), [rel('g1'), rel('g2')]);
    assert.deepEqual(await ranked('favonius', { sortCriteria: 'urn', sortOrder: 'DESCENDING' }), [rel('g2'), rel('g1')]);
    assert.deepEqual(await ranked('favonius'), [rel('g2'), rel('g1')]);
  });

  it('a query without free words is in URN order', async () => {
    await writeDatasets(t, [
      [rel('h2'), { name: 'lips', tags: [tag('lips')] }],
      [rel('h1'), { description: 'lips', tags: [tag('lips')] }],
    ]);
    assert.deepEqual(await ranked('tags:lips'), [rel('h1'), rel('h2')]);
  });

  it('field clauses filter a ranked search without changing the order', async () => {
    await writeDatasets(t, [
      [rel('i1'), { description: 'solanus', tags: [tag('keep')] }],
      [rel('i2'), { name: 'solanus' }],
      [rel('i3'), { name: 'solanus', tags: [tag('keep')] }],
    ]);
    assert.deepEqual(await ranked('solanus tags:keep'), [rel('i3'), rel('i1')]);
  });

  it('pages through a ranked result in the same order, each entity once', async () => {
    // Scores 4 (name), 2 (tags), 1 (description), several of each, written out of URN order.
    const specs: Array<[string, { name?: string; tags?: string[]; description?: string }]> = [];
    for (let i = 0; i < 12; i++) {
      const urn = rel(`j${String(11 - i).padStart(2, '0')}`);
      specs.push([urn, i % 3 === 0 ? { name: 'vulturnus' } : i % 3 === 1 ? { tags: [tag('vulturnus')] } : { description: 'vulturnus' }]);
    }
    await writeDatasets(t, specs);
    const whole = await ranked('vulturnus');
    assert.equal(whole.length, 12);
    const { pages, totals } = await pagesOf(t, 'dataset', { query: 'vulturnus', count: 5 });
    assert.deepEqual(pages.map((p) => p.length), [5, 5, 2]);
    assert.deepEqual(pages.flat(), whole);
    assert.deepEqual(duplicates(pages.flat()), []);
    assert.deepEqual(totals, [12, 12, 12]);
  });

  it('ranks the scroll endpoints the same way', async () => {
    await writeDatasets(t, [
      [rel('k1'), { description: 'argestes' }],
      [rel('k2'), { qualifiedName: 'db.argestes' }],
      [rel('k3'), { name: 'argestes' }],
    ]);
    const v2 = await scroll(t, { entities: ['dataset'] }, { query: 'argestes' });
    assert.equal(v2.status, 200);
    assert.deepEqual(v2.body.results.map((r: { urn: string }) => r.urn), [rel('k2'), rel('k3'), rel('k1')]);
    const v3 = await scroll(t, { entities: ['dataset'] }, { query: 'argestes' }, 3);
    assert.equal(v3.status, 200);
    assert.deepEqual(v3.body.entities.map((e: { urn: string }) => e.urn), [rel('k2'), rel('k3'), rel('k1')]);
  });

  it('gives the total of the whole ranked result', async () => {
    await writeDatasets(t, [
      [rel('l1'), { description: 'skiron' }],
      [rel('l2'), { name: 'skiron' }],
      [rel('l3'), { tags: [tag('skiron')] }],
    ]);
    const res = await list(t, 'dataset', { query: 'skiron', count: 1 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), [rel('l2')]);
    assert.equal(res.body.totalCount, 3);
  });
});
