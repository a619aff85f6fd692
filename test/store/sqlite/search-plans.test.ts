import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { buildApp } from '../../../src/app.js';
import { Registry } from '../../../src/registry/registry.js';
import type { Condition, SearchQuery, SortOrder, TextCondition } from '../../../src/store/search-types.js';
import { Scope } from '../../../src/store/sqlite/search-sql.js';
import { SqliteSearch } from '../../../src/store/sqlite/search.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { GraphEdges } from '../../../src/graph/edges.js';
import { lineageSides } from '../../../src/graph/lineage-kinds.js';
import type { NeighbourCondition, NeighbourSides } from '../../../src/store/search-types.js';
import { datasetUrn, enc, V2 } from '../../helpers.js';

const dataset = (i: number) => datasetUrn(`plans.t${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'snowflake' : 'hive');

/**
 * The SQLite search has two ways to find a page: read the whole result and sort it (few results),
 * or walk entities in sort order and test each (many). Both must give the same pages, totals and
 * facets for any query; here each is forced on the same data and their answers compared.
 */
describe('SQLite search plans', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-plans-'));
  const retention = 'urn:li:structuredProperty:plans.retention';
  const tier = 'urn:li:structuredProperty:plans.tier';
  let db: Database.Database;
  let readWhole: SqliteSearch;
  let walk: SqliteSearch;

  before(async () => {
    const { app } = await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 24 });
    const post = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, payload: payload as object });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
    };
    for (const [urn, qualifiedName, valueType] of [
      [retention, 'plans.retention', 'number'],
      [tier, 'plans.tier', 'string'],
    ]) {
      await post(`${V2}/structuredProperty/${enc(urn)}/propertyDefinition`, {
        qualifiedName,
        valueType: `urn:li:dataType:datahub.${valueType}`,
        cardinality: 'SINGLE',
        entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
      });
    }
    const words = ['orders', 'customers', 'invoices', 'events'];
    const upstreams = (...of: number[]) => ({ upstreams: of.map((j) => ({ dataset: dataset(j), type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } })) });
    await post(
      `${V2}/dataset`,
      Array.from({ length: 240 }, (_, i) => ({
        urn: dataset(i),
        aspects: {
          ...(i % 5 === 4 ? {} : { datasetProperties: { value: { name: `${words[i % 4]} ${i}`, description: `about ${words[(i >> 2) % 4]}` } } }),
          globalTags: { value: { tags: [{ tag: `urn:li:tag:t${i % 3}` }, ...(i % 7 === 0 ? [{ tag: 'urn:li:tag:pii' }] : [])] } },
          structuredProperties: {
            value: {
              properties: [
                { propertyUrn: retention, values: [{ double: (i % 12) * 30 }] },
                ...(i % 2 === 0 ? [{ propertyUrn: tier, values: [{ string: ['gold', 'silver'][(i >> 1) % 2] }] }] : []),
              ],
            },
          },
          ...(i % 11 === 0 ? { status: { value: { removed: true } } } : {}),
          // Lineage: every third dataset is built from the one before it (some of them removed), and every ninth from t000 too.
          ...(i % 3 === 1 ? { upstreamLineage: { value: upstreams(i - 1, ...(i % 9 === 1 && i > 1 ? [0] : [])) } } : {}),
        },
      })),
    );
    await post(
      `${V2}/chart`,
      Array.from({ length: 30 }, (_, i) => ({
        urn: `urn:li:chart:(looker,plans.c${String(i).padStart(2, '0')})`,
        aspects: { chartInfo: { value: { title: `${words[i % 4]} chart`, description: 'a chart', lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } } } } },
      })),
    );
    await app.close();
    db = new Database(join(dir, 'urnbase.db'), { readonly: true });
    readWhole = new SqliteSearch(db, Number.MAX_SAFE_INTEGER);
    walk = new SqliteSearch(db, 0);
  });
  after(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upstream = lineageSides(new GraphEdges(Registry.load()).walkKinds(), 'UPSTREAM');
  const downstream = lineageSides(new GraphEdges(Registry.load()).walkKinds(), 'DOWNSTREAM');
  const neighbour = (sides: NeighbourSides, op: NeighbourCondition['op'], values: string[], removedNeighbours = false): NeighbourCondition => ({ kind: 'neighbour', sides, op, values, removedNeighbours });
  const types = [
    { name: 'dataset', keyAspect: 'datasetKey' },
    { name: 'chart', keyAspect: 'chartKey' },
  ];
  const text = (word: string): TextCondition => ({ kind: 'text', words: [word], phrase: false, prefix: true });
  const conditions: Array<[string, Condition]> = [
    ['everything', { kind: 'all' }],
    ['one tag', { kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:t1'] }],
    ['a tag prefix', { kind: 'term', field: 'tags', op: 'prefix', values: ['urn:li:tag:t'] }],
    ['either tag', { kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:t0', 'urn:li:tag:pii'] }],
    ['a number range', { kind: 'number', field: retention, op: 'gte', value: 150, unique: true }],
    ['a string property', { kind: 'term', field: tier, op: 'eq', values: ['gold'], unique: true }],
    ['has a tier', { kind: 'exists', field: tier }],
    ['a word', text('orders')],
    ['words and a tag', { kind: 'and', children: [text('cust'), { kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:t2'] }] }],
    ['a range but not a tag', { kind: 'and', children: [{ kind: 'number', field: retention, op: 'lt', value: 200, unique: true }, { kind: 'not', child: { kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:pii'] } }] }],
    ['one or the other', { kind: 'or', children: [text('invoices'), { kind: 'term', field: tier, op: 'eq', values: ['silver'], unique: true }] }],
    ['not a platform', { kind: 'not', child: { kind: 'term', field: 'platform', op: 'eq', values: ['urn:li:dataPlatform:hive'], unique: true } }],
    ['an upstream among some', neighbour(upstream, 'eq', [dataset(0), dataset(3), dataset(33), dataset(66)])],
    ['an upstream, removed ones too', neighbour(upstream, 'eq', [dataset(0), dataset(33), dataset(66)], true)],
    ['any upstream', neighbour(upstream, 'exists', [])],
    ['any downstream on snowflake', { kind: 'and', children: [neighbour(downstream, 'exists', []), { kind: 'term', field: 'platform', op: 'eq', values: ['urn:li:dataPlatform:snowflake'], unique: true }] }],
    ['no upstream', { kind: 'not', child: neighbour(upstream, 'exists', []) }],
    ['an upstream by prefix or a tag', { kind: 'or', children: [neighbour(upstream, 'prefix', ['urn:li:dataset:(urn:li:dataPlatform:snowflake,plans.t1']), { kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:pii'] }] }],
  ];
  const sorts: Array<[string, SortOrder]> = [
    ['urn', 'ASCENDING'],
    ['urn', 'DESCENDING'],
    ['name', 'ASCENDING'],
    ['name', 'DESCENDING'],
  ];

  /** Every page of a query, in order, with the total and facets of the first page. */
  const scroll = async (search: SqliteSearch, query: Omit<SearchQuery, 'after' | 'count'>) => {
    const urns: string[] = [];
    let after: SearchQuery['after'];
    const first = await search.search({ ...query, count: 7 });
    for (let page = first; ; ) {
      urns.push(...page.urns);
      if (!page.next) break;
      after = page.next;
      page = await search.search({ ...query, after, count: 7 });
    }
    return { urns, total: first.total, facets: first.facets };
  };

  for (const [name, condition] of conditions) {
    for (const includeRemoved of [false, true]) {
      it(`agree on ${name}${includeRemoved ? ', removed included' : ''}, in every order`, async () => {
        for (const [by, order] of sorts) {
          const query = { types, condition, includeRemoved, sort: { by, order }, facets: [{ field: 'tags', numbers: false }, { field: 'entity', numbers: false }, { field: retention, numbers: true }] };
          const whole = await scroll(readWhole, query);
          assert.ok(whole.total > 0 && (condition.kind === 'all' || whole.total < 270), `${by} ${order}: finds some, not all (${whole.total})`);
          assert.deepEqual(await scroll(walk, query), whole, `${by} ${order}`);
          assert.equal(new Set(whole.urns).size, whole.urns.length, 'no entity twice');
          assert.equal(whole.urns.length, whole.total, 'every entity once');
        }
      });
    }
  }

  // Relevance has plans of its own: tiers of placements read in order, or every match scored.
  const ranked: Array<[string, TextCondition[], Condition[]]> = [
    ['a word', [text('orders')], []],
    ['a word found in names, tags and descriptions', [text('t1')], []],
    ['two words', [text('orders'), text('about')], []],
    ['a phrase', [{ kind: 'text', words: ['about', 'customers'], phrase: true, prefix: false }], []],
    ['a word within the description', [{ kind: 'text', columns: ['description'], words: ['orders'], phrase: false, prefix: true }], []],
    ['a word in names or keywords only', [{ kind: 'text', columns: ['name', 'keywords'], words: ['t2'], phrase: false, prefix: false }], []],
    ['words and a tag', [text('cust')], [{ kind: 'term', field: 'tags', op: 'eq', values: ['urn:li:tag:t2'] }]],
  ];
  const scoring = () => new SqliteSearch(db, Number.MAX_SAFE_INTEGER, 0);
  for (const [name, rank, rest] of ranked) {
    for (const includeRemoved of [false, true]) {
      it(`agree when ${name} rank the results${includeRemoved ? ', removed included' : ''}`, async () => {
        const condition: Condition = rank.length + rest.length === 1 ? rank[0] : { kind: 'and', children: [...rank, ...rest] };
        const query = { types, condition, includeRemoved, sort: { by: 'relevance', order: 'DESCENDING' as const }, rank, facets: [] };
        const whole = await scroll(scoring(), query);
        assert.ok(whole.total > 0, 'the query finds something');
        assert.deepEqual(await scroll(readWhole, query), whole);
        assert.deepEqual(await scroll(walk, query), whole);
        assert.equal(whole.urns.length, whole.total);
      });
    }
  }

  // Full text is scoped by testing the types searched (AND), the others (NOT), or no type when no
  // other type has documents: each must answer as the search of every type, less the other types.
  // Every type with documents (the seeded platforms and data types among them): no type is tested.
  const everyType = () =>
    db
      .prepare<[], string>('SELECT type FROM search_types WHERE documents > 0')
      .pluck()
      .all()
      .map((name) => ({ name, keyAspect: Registry.load().entityType(name)!.keyAspect.name }));
  const scoped: Array<[string, TextCondition[]]> = [
    ['a word', [text('orders')]],
    ['two words', [text('orders'), text('about')]],
    ['a word that a type name begins with', [text('chart')]],
    ['a word that begins a type name and nothing else', [text('datas')]],
  ];
  for (const [name, rank] of scoped) {
    it(`a search of some types answers as one of all, less the others, when ${name} rank the results`, async () => {
      const condition: Condition = rank.length === 1 ? rank[0] : { kind: 'and', children: rank };
      const query = (scope: typeof types, by: 'urn' | 'relevance') => ({
        types: scope,
        condition,
        includeRemoved: false,
        sort: { by, order: by === 'urn' ? ('ASCENDING' as const) : ('DESCENDING' as const) },
        rank,
        facets: [],
      });
      for (const by of ['urn', 'relevance'] as const) {
        for (const search of [readWhole, walk]) {
          const all = await scroll(search, query(everyType(), by));
          for (const scope of [[types[0]], [types[1]], types]) {
            const urns = all.urns.filter((u) => scope.some((t) => u.startsWith(`urn:li:${t.name}:`)));
            assert.deepEqual(await scroll(search, query(scope, by)), { urns, total: urns.length, facets: [] }, `${scope.map((t) => t.name).join(', ')} by ${by}`);
          }
        }
      }
      if (name.includes('nothing else')) assert.equal((await scroll(readWhole, query(types, 'urn'))).total, 0);
    });
  }

  it('counts the full-text documents of each type', () => {
    const counted = db.prepare('SELECT type, documents FROM search_types WHERE documents > 0 ORDER BY type').all();
    const documents = db
      .prepare('SELECT a.entity_type AS type, count(DISTINCT d.entity) AS documents FROM search_docs d JOIN aspects a ON a.id = d.entity GROUP BY 1 ORDER BY 1')
      .all();
    assert.deepEqual(counted, documents);
    assert.deepEqual(
      counted.filter((c) => ['chart', 'dataset', 'structuredProperty'].includes((c as { type: string }).type)),
      [
        { type: 'chart', documents: 30 },
        { type: 'dataset', documents: 240 },
        { type: 'structuredProperty', documents: 2 },
      ],
    );
  });
});

describe('full-text scope', () => {
  const types = [
    { name: 'dataset', keyAspect: 'datasetKey' },
    { name: 'chart', keyAspect: 'chartKey' },
  ];
  const scope = (searched: typeof types, documents: Array<[string, number]>) => new Scope(searched, false, new Map(documents)).match('{name} : ("x")');

  it('tests no type when no other type has documents', () => {
    assert.equal(scope(types, [['dataset', 5], ['chart', 1], ['tag', 0]]), '({name} : ("x"))');
  });

  it('leaves the other types out when they have fewer documents, and keeps the types searched otherwise', () => {
    assert.equal(scope([types[0]], [['dataset', 5], ['chart', 1], ['tag', 2]]), '({name} : ("x")) NOT {type} : ("\u{E000}chart" OR "\u{E000}tag")');
    assert.equal(scope([types[1]], [['dataset', 5], ['chart', 1]]), '{type} : ("\u{E000}chart") AND ({name} : ("x"))');
    assert.equal(scope(types, [['dataset', 2], ['chart', 1], ['tag', 3]]), '{type} : ("\u{E000}dataset" OR "\u{E000}chart") AND ({name} : ("x"))');
  });
});

describe('full-text documents per type', () => {
  it('follow writes and deletes of entities, and are counted again when the index is rebuilt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnbase-types-'));
    try {
      const datasets = () => {
        const db = new Database(join(dir, 'urnbase.db'), { readonly: true });
        try {
          return db.prepare(`SELECT coalesce(sum(documents), 0) FROM search_types WHERE type = 'dataset'`).pluck().get();
        } finally {
          db.close();
        }
      };
      let app = (await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 20 })).app;
      const urns = ['a', 'b', 'c'].map((n) => datasetUrn(`types.${n}`));
      for (const urn of urns) {
        const res = await app.inject({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/datasetProperties`, payload: { description: 'counted' } });
        assert.ok(res.statusCode < 300, res.body);
      }
      // A new description changes the document, not how many there are; a deleted entity's document goes.
      await app.inject({ method: 'POST', url: `${V2}/dataset/${enc(urns[0])}/datasetProperties`, payload: { description: 'again' } });
      assert.equal((await app.inject({ method: 'DELETE', url: `${V2}/dataset/${enc(urns[1])}` })).statusCode, 200);
      await app.close();
      assert.equal(datasets(), 2);

      const store = new SqliteStore(dir);
      await store.clearSearchIndex();
      await store.close();
      assert.equal(datasets(), 0);
      app = (await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 20 })).app;
      await app.close();
      assert.equal(datasets(), 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('search index of an older data dir', () => {
  it('is built at start when the data dir has none (or one built from another search.json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnbase-reindex-'));
    try {
      const urn = datasetUrn('reindex.orders');
      let app = (await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 20 })).app;
      await app.inject({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/globalTags`, payload: { tags: [{ tag: 'urn:li:tag:pii' }] } });
      await app.close();
      // As a data dir written before search existed: aspects, and no index.
      const store = new SqliteStore(dir);
      await store.clearSearchIndex();
      await store.close();

      app = (await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 20 })).app;
      const res = await app.inject({ method: 'GET', url: `${V2}/dataset?query=${enc('tags:pii AND orders')}` });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        JSON.parse(res.body).results.map((r: { urn: string }) => r.urn),
        [urn],
      );
      await app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
