import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import {
  datasetUrn,
  duplicates,
  globalTags,
  invalid,
  list,
  listUrns,
  pagesOf,
  remove,
  scroll,
  scrollPagesOf,
  sorted,
  tag,
  write,
  writeBatch,
  writeDatasets,
  type DatasetSpec,
  type Params,
} from './fixtures.js';

/** Paging (scroll ids, counts) and sorting (urn, name, qualifiedName, ascending and descending). */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('search: paging and sorting', () => {
  let t: TestApp;
  // 20 datasets; names and qualified names in an order unlike the URNs', some without either.
  const entities = Array.from({ length: 20 }, (_, i) => {
    const n = (i * 7) % 20;
    const name = i % 5 === 4 ? undefined : i % 2 === 0 ? `name ${pad(n)}` : `NAME ${pad(n)}`;
    const qualifiedName = i % 4 === 1 ? undefined : `db.t${pad(19 - i)}`;
    return { urn: datasetUrn(`page.d${pad(i)}`), name, qualifiedName, even: i % 2 === 0 };
  });
  const urns = entities.map((e) => e.urn);
  const byKey = (key: 'name' | 'qualifiedName', desc: boolean) => {
    const withKey = entities.filter((e) => e[key] !== undefined);
    withKey.sort((a, b) => (a[key]!.toLowerCase() < b[key]!.toLowerCase() ? -1 : 1) * (desc ? -1 : 1));
    const without = entities.filter((e) => e[key] === undefined).map((e) => e.urn).sort();
    return [...withKey.map((e) => e.urn), ...without];
  };

  before(async () => {
    t = await testApp();
    await writeDatasets(
      t,
      // Written in reverse, so that nothing depends on the order of writes.
      [...entities].reverse().map((e): [string, DatasetSpec] => [e.urn, { name: e.name, qualifiedName: e.qualifiedName, tags: [tag(e.even ? 'even' : 'odd')] }]),
    );
  });
  after(() => t.app.close());

  describe('pages', () => {
    it('answers 10 entities by default, the total, and a scrollId for the next page', async () => {
      const res = await list(t, 'dataset');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), urns.slice(0, 10));
      assert.equal(res.body.totalCount, 20);
      assert.equal(typeof res.body.scrollId, 'string');
    });

    it('pages through every entity exactly once in URN order, the last page without a scrollId', async () => {
      const { pages, totals } = await pagesOf(t, 'dataset', { count: 3 });
      assert.deepEqual(pages.map((p) => p.length), [3, 3, 3, 3, 3, 3, 2]);
      assert.deepEqual(pages.flat(), urns);
      assert.deepEqual(totals, Array(7).fill(20));
    });

    it('ends without a scrollId when the last page is exactly full', async () => {
      const { pages } = await pagesOf(t, 'dataset', { count: 5 });
      assert.deepEqual(pages.map((p) => p.length), [5, 5, 5, 5]);
      assert.deepEqual(pages.flat(), urns);
    });

    it('pages in descending URN order', async () => {
      const { pages } = await pagesOf(t, 'dataset', { count: 3, sortCriteria: 'urn', sortOrder: 'DESCENDING' });
      assert.deepEqual(pages.flat(), [...urns].reverse());
    });

    it('pages through the result of a query', async () => {
      const { pages, totals } = await pagesOf(t, 'dataset', { query: 'tags:even', count: 3 });
      assert.deepEqual(pages.flat(), entities.filter((e) => e.even).map((e) => e.urn));
      assert.deepEqual(pages.map((p) => p.length), [3, 3, 3, 1]);
      assert.deepEqual(totals, [10, 10, 10, 10]);
    });

    it('pages through a ranked result (free words, no sort) each entity once', async () => {
      // "name" is a word of 16 names; the other 4 datasets do not have it.
      const whole = await listUrns(t, 'dataset', { query: 'name' });
      assert.equal(whole.length, 16);
      const { pages } = await pagesOf(t, 'dataset', { query: 'name', count: 3 });
      assert.deepEqual(pages.flat(), whole);
      assert.deepEqual(duplicates(pages.flat()), []);
      assert.deepEqual(sorted(pages.flat()), sorted(entities.filter((e) => e.name).map((e) => e.urn)));
    });

    it('pages through the v2 scroll', async () => {
      const pages = await scrollPagesOf(t, { entities: ['dataset'] }, { count: 4 });
      assert.deepEqual(pages.flat(), urns);
      assert.deepEqual(pages.map((p) => p.length), [4, 4, 4, 4, 4]);
    });

    it('pages through the v3 scroll, whose last page has scrollId null', async () => {
      const pages = await scrollPagesOf(t, { entities: ['dataset'] }, { count: 7 }, 3);
      assert.deepEqual(pages.flat(), urns);
      const last = await scroll(t, { entities: ['dataset'] }, { count: 100 }, 3);
      assert.equal(last.status, 200);
      assert.equal(last.body.scrollId, null);
      assert.equal(last.body.totalCount, 20);
    });

    it('pages with a filter and a sort through the scroll body', async () => {
      const body = { entities: ['dataset'], filter: { and: [{ criteria: [{ field: 'tags', condition: 'EQUAL', values: ['urn:li:tag:odd'] }] }] }, sortCriteria: [{ field: 'name', order: 'ASCENDING' }] };
      const pages = await scrollPagesOf(t, body, { count: 2 });
      const odd = new Set(entities.filter((e) => !e.even).map((e) => e.urn));
      assert.deepEqual(pages.flat(), byKey('name', false).filter((u) => odd.has(u)));
    });
  });

  describe('sorting', () => {
    it('sorts by name ascending, ignoring case, entities without a name last (in URN order)', async () => {
      const { pages } = await pagesOf(t, 'dataset', { sortCriteria: 'name', count: 3 });
      assert.deepEqual(pages.flat(), byKey('name', false));
    });

    it('sorts by name descending, entities without a name still last', async () => {
      const { pages } = await pagesOf(t, 'dataset', { sortCriteria: 'name', sortOrder: 'DESCENDING', count: 3 });
      assert.deepEqual(pages.flat(), byKey('name', true));
    });

    it('takes the deprecated sort parameter too', async () => {
      assert.deepEqual(await listUrns(t, 'dataset', { sort: 'name' }), byKey('name', false));
    });

    it('sorts by qualifiedName in both orders', async () => {
      assert.deepEqual((await pagesOf(t, 'dataset', { sortCriteria: 'qualifiedName', count: 4 })).pages.flat(), byKey('qualifiedName', false));
      assert.deepEqual(
        (await pagesOf(t, 'dataset', { sortCriteria: 'qualifiedName', sortOrder: 'DESCENDING', count: 4 })).pages.flat(),
        byKey('qualifiedName', true),
      );
    });

    it('sorts a query result by name', async () => {
      const even = new Set(entities.filter((e) => e.even).map((e) => e.urn));
      assert.deepEqual(await listUrns(t, 'dataset', { query: 'tags:even', sortCriteria: 'name' }), byKey('name', false).filter((u) => even.has(u)));
    });

    it("uses the scroll body's sortCriteria", async () => {
      const res = await scroll(t, { entities: ['dataset'], sortCriteria: [{ field: 'name', order: 'DESCENDING' }] }, { count: 100 });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), byKey('name', true));
    });

    it("lets the URL's sort parameters win over the body's sortCriteria", async () => {
      const body = { entities: ['dataset'], sortCriteria: [{ field: 'name', order: 'DESCENDING' }] };
      const res = await scroll(t, body, { count: 100, sortCriteria: 'qualifiedName', sortOrder: 'ASCENDING' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), byKey('qualifiedName', false));
      const v3 = await scroll(t, body, { count: 100, sort: 'urn' }, 3);
      assert.equal(v3.status, 200);
      assert.deepEqual(v3.body.entities.map((e: { urn: string }) => e.urn), urns);
    });

    it('answers 400 for a sort by a field that cannot be sorted', async () => {
      const message = 'Cannot sort by tags (sortable: urn, name, qualifiedName)';
      const res = await list(t, 'dataset', { sortCriteria: 'tags' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(message));
      const body = await scroll(t, { sortCriteria: [{ field: 'tags', order: 'ASCENDING' }] });
      assert.equal(body.status, 400);
      assert.deepEqual(body.body, invalid(message));
      const description = await list(t, 'dataset', { sort: 'description' });
      assert.equal(description.status, 400);
      assert.deepEqual(description.body, invalid('Cannot sort by description (sortable: urn, name, qualifiedName)'));
    });

    it('answers 400 for a sort by an unknown field', async () => {
      const res = await list(t, 'dataset', { sortCriteria: 'colour' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid('Unknown search field colour'));
    });
  });

  describe('scroll ids', () => {
    it('answers 400 for a scrollId that was not issued', async () => {
      for (const scrollId of ['garbage', Buffer.from('{"s":"urn:ASCENDING"}').toString('base64url')]) {
        const res = await list(t, 'dataset', { scrollId });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, invalid(`Invalid scrollId: ${scrollId}`));
      }
      const v3 = await scroll(t, {}, { scrollId: 'garbage' }, 3);
      assert.equal(v3.status, 400);
      assert.deepEqual(v3.body, invalid('Invalid scrollId: garbage'));
    });

    it('answers 400 for a scrollId of another sort', async () => {
      const byName = await list(t, 'dataset', { sortCriteria: 'name', count: 2 });
      assert.equal(byName.status, 200);
      const res = await list(t, 'dataset', { count: 2, scrollId: byName.body.scrollId });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid('Invalid scrollId: it continues a scroll sorted by name:ASCENDING, not urn:ASCENDING'));
      const descending = await list(t, 'dataset', { sortCriteria: 'name', sortOrder: 'DESCENDING', count: 2, scrollId: byName.body.scrollId });
      assert.equal(descending.status, 400);
      assert.deepEqual(descending.body, invalid('Invalid scrollId: it continues a scroll sorted by name:ASCENDING, not name:DESCENDING'));
    });

    it('continues a GET list page on the scroll endpoint with the same sort', async () => {
      const first = await list(t, 'dataset', { count: 5 });
      const res = await scroll(t, { entities: ['dataset'] }, { count: 5, scrollId: first.body.scrollId });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), urns.slice(5, 10));
    });
  });

  describe('ties', () => {
    it('orders entities with the same name by URN', async () => {
      const tie = [datasetUrn('tie.c'), datasetUrn('tie.a'), datasetUrn('tie.b')];
      await writeDatasets(t, tie.map((u): [string, DatasetSpec] => [u, { name: 'Same Name', tags: [tag('tie')] }]));
      await write(t, 'dataset', datasetUrn('tie.0'), 'datasetProperties', { name: 'same name 2' });
      await write(t, 'dataset', datasetUrn('tie.0'), 'globalTags', globalTags([tag('tie')]));
      const { pages } = await pagesOf(t, 'dataset', { query: 'tags:tie', sortCriteria: 'name', count: 1 });
      assert.deepEqual(pages.flat(), [...sorted(tie), datasetUrn('tie.0')]);
    });
  });
});

describe('search: count is capped at 1000', () => {
  let t: TestApp;
  const tags = Array.from({ length: 1003 }, (_, i) => `urn:li:tag:cap${pad(i, 4)}`);
  before(async () => {
    t = await testApp();
    await writeBatch(t, 'tag', tags.map((urn) => ({ urn, aspects: { tagProperties: { name: urn.slice(11) } } })));
  });
  after(() => t.app.close());

  it('answers at most 1000 entities, with the full total and a scrollId for the rest', async () => {
    const res = await list(t, 'tag', { count: 5000, query: 'cap*', sort: 'urn', aspects: 'tagKey' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), tags.slice(0, 1000));
    assert.equal(res.body.totalCount, 1003);
    const next = await list(t, 'tag', { count: 5000, query: 'cap*', sort: 'urn', aspects: 'tagKey', scrollId: res.body.scrollId });
    assert.deepEqual(next.body.results.map((r: { urn: string }) => r.urn), tags.slice(1000));
    assert.equal(next.body.scrollId, undefined);
  });

  it('caps the scroll endpoints too', async () => {
    const res = await scroll(t, { entities: ['tag'] }, { count: 1001 }, 3);
    assert.equal(res.status, 200);
    assert.equal(res.body.entities.length, 1000);
    assert.equal(res.body.totalCount, 1003);
    assert.equal(typeof res.body.scrollId, 'string');
  });
});

/**
 * A scroll keeps its place while others write: every entity that exists from its first page to its
 * last is returned exactly once, and nothing twice, whatever is created, updated or deleted meanwhile.
 */
describe('search: paging is stable under concurrent writes', () => {
  const original = (i: number) => datasetUrn(`conc.d${pad(i * 10, 3)}`);
  const ORIGINALS = Array.from({ length: 20 }, (_, i) => original(i));

  /** 20 datasets, each with a name, a description with the word "gale", tags and an owner. */
  async function world(): Promise<TestApp> {
    const t = await testApp();
    await writeDatasets(
      t,
      ORIGINALS.map((urn, i): [string, DatasetSpec] => [
        urn,
        { name: `table ${pad((i * 7) % 20)}`, description: i % 3 === 0 ? 'gale gale' : 'a gale', tags: [tag(`t${i % 4}`)], owners: ['urn:li:corpuser:jdoe'] },
      ]),
    );
    return t;
  }

  /**
   * Between pages: new datasets whose URNs (and names) sort before the cursor, right after it, and at
   * the end; updates of unrelated aspects of entities already seen and not yet seen; deletes of
   * unrelated aspects; a whole delete of an entity created during the scroll.
   */
  async function churn(t: TestApp, page: number, lastSeen: string): Promise<void> {
    const id = lastSeen.slice(lastSeen.indexOf(',') + 1, lastSeen.lastIndexOf(','));
    await writeDatasets(t, [
      [datasetUrn(`conc.a${page}`), { name: `aaa ${page}`, description: 'gale' }],
      [datasetUrn(`${id}5`), { name: `table ${pad(page)}5`, description: 'gale' }],
      [datasetUrn(`conc.z${page}`), { name: `zzz ${page}`, description: 'gale' }],
    ]);
    const seen = ORIGINALS[(page * 3) % 20];
    const unseen = ORIGINALS[(page * 3 + 10) % 20];
    await write(t, 'dataset', seen, 'globalTags', globalTags([tag(`changed${page}`)]));
    await write(t, 'dataset', unseen, 'globalTags', globalTags([tag(`changed${page}`), tag('more')]));
    await write(t, 'dataset', ORIGINALS[(page * 7 + 1) % 20], 'ownership', { owners: [{ owner: `urn:li:corpuser:u${page}`, type: 'DATAOWNER' }] });
    await remove(t, 'dataset', ORIGINALS[(page * 5 + 2) % 20], 'ownership');
    await remove(t, 'dataset', ORIGINALS[(page * 11 + 3) % 20], 'globalTags');
    if (page > 0) await remove(t, 'dataset', datasetUrn(`conc.z${page - 1}`));
  }

  function assertSeenOnce(seen: string[]): void {
    assert.deepEqual(duplicates(seen), [], 'an entity came twice');
    const missing = ORIGINALS.filter((u) => !seen.includes(u));
    assert.deepEqual(missing, [], 'an entity that existed throughout was not seen');
  }

  async function scrollWithChurn(t: TestApp, params: Params): Promise<string[]> {
    const seen: string[] = [];
    let scrollId: string | undefined;
    for (let page = 0; page < 200; page++) {
      const res = await list(t, 'dataset', { count: 3, ...params, scrollId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const urnsOfPage = res.body.results.map((r: { urn: string }) => r.urn);
      seen.push(...urnsOfPage);
      scrollId = res.body.scrollId;
      if (!scrollId) return seen;
      await churn(t, page, urnsOfPage[urnsOfPage.length - 1]);
    }
    assert.fail('the scroll did not end');
  }
  it('in URN order', async () => {
    const t = await world();
    try {
      const seen = await scrollWithChurn(t, {});
      assertSeenOnce(seen);
      assert.deepEqual(seen, sorted(seen), 'pages are in URN order');
    } finally {
      await t.app.close();
    }
  });

  it('in descending URN order', async () => {
    const t = await world();
    try {
      assertSeenOnce(await scrollWithChurn(t, { sortCriteria: 'urn', sortOrder: 'DESCENDING' }));
    } finally {
      await t.app.close();
    }
  });

  it('sorted by name ascending', async () => {
    const t = await world();
    try {
      assertSeenOnce(await scrollWithChurn(t, { sortCriteria: 'name' }));
    } finally {
      await t.app.close();
    }
  });

  it('sorted by name descending', async () => {
    const t = await world();
    try {
      assertSeenOnce(await scrollWithChurn(t, { sortCriteria: 'name', sortOrder: 'DESCENDING' }));
    } finally {
      await t.app.close();
    }
  });

  it('with a query', async () => {
    const t = await world();
    try {
      assertSeenOnce(await scrollWithChurn(t, { query: 'owners:jdoe OR NOT owners:jdoe', sort: 'urn' }));
    } finally {
      await t.app.close();
    }
  });

  it('by relevance', async () => {
    const t = await world();
    try {
      assertSeenOnce(await scrollWithChurn(t, { query: 'gale' }));
    } finally {
      await t.app.close();
    }
  });

  it('with writes running at the same time as the page requests', async () => {
    const t = await world();
    try {
      const seen: string[] = [];
      let scrollId: string | undefined;
      let lastSeen = ORIGINALS[0];
      for (let page = 0; page < 200; page++) {
        const [res] = await Promise.all([list(t, 'dataset', { count: 3, scrollId }), churn(t, page, lastSeen)]);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const urnsOfPage: string[] = res.body.results.map((r: { urn: string }) => r.urn);
        seen.push(...urnsOfPage);
        scrollId = res.body.scrollId;
        if (!scrollId) break;
        lastSeen = urnsOfPage[urnsOfPage.length - 1];
      }
      assert.equal(scrollId, undefined, 'the scroll ended');
      assertSeenOnce(seen);
    } finally {
      await t.app.close();
    }
  });
});
