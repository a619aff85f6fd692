import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { PostgresSearch } from '../../../src/store/postgres/search.js';
import type { Condition, SearchQuery, SortOrder, TextCondition } from '../../../src/store/search-types.js';
import { SqliteSearch } from '../../../src/store/sqlite/search.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { datasetUrn, enc, V2 } from '../../helpers.js';
import { postgresAvailable, PG_SKIP_MESSAGE } from '../../pg.js';
import { createSearchDatabase, mirrorIndex, type SearchDatabase } from './search-mirror.js';

/**
 * Search on PostgreSQL answers as search on SQLite: one catalog is written through the HTTP app on
 * SQLite while every index write is repeated on PostgreSQL; each query then gets the same URNs in
 * the same order over every page, the same totals and facets from both — before and after updates
 * and deletes.
 */

const up = await postgresAvailable();
if (!up) console.log(`# ${PG_SKIP_MESSAGE}`);
// Both stores in every run: `npm test` runs it (two minutes); the PostgreSQL suite, which repeats
// the store-bound tests on PostgreSQL, would only repeat it to the letter.
const repeat = process.env.URNBASE_TEST_POSTGRES === '1';
if (repeat) console.log('# PostgreSQL search agrees with SQLite search: compared in npm test already (it runs both stores itself)');

if (!repeat) describe('PostgreSQL search agrees with SQLite search', { skip: up ? false : PG_SKIP_MESSAGE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-pgsearch-'));
  const retention = 'urn:li:structuredProperty:pgs.retention';
  const tier = 'urn:li:structuredProperty:pgs.tier';
  const since = 'urn:li:structuredProperty:pgs.since';
  let database: SearchDatabase;
  let app: FastifyInstance;
  let db: Database.Database;
  let sqlite: SqliteSearch;
  /** PostgreSQL's plans: matches read whole and relevance scored; walks in sort order and relevance tiers. */
  let plans: Array<[string, PostgresSearch]>;
  let postgres: PostgresSearch;

  const post = async (url: string, payload: unknown, method: 'POST' | 'DELETE' = 'POST') => {
    const res = await app.inject({ method, url, ...(method === 'POST' ? { payload: payload as object } : {}) });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
  };
  const words = ['orders', 'customers', 'invoices', 'events'];
  /** Datasets (with properties: i % 5 !== 4) named for tokenising edge cases. */
  const named = [1, 10, 28, 37, 46, 55];
  const names = ['db.sales_orders', 'Café Crème', 'O\'Brien "quoted"', 'Łódź straße', 'x_y.z-w', 'ÉVÉNEMENTS'];

  before(async () => {
    database = await createSearchDatabase();
    app = (await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1 << 24, store: mirrorIndex(new SqliteStore(dir), database.pool) })).app;
    for (const [urn, qualifiedName, valueType, cardinality] of [
      [retention, 'pgs.retention', 'number', 'SINGLE'],
      [tier, 'pgs.tier', 'string', 'MULTIPLE'],
      [since, 'pgs.since', 'date', 'SINGLE'],
    ]) {
      await post(`${V2}/structuredProperty/${enc(urn)}/propertyDefinition`, {
        qualifiedName,
        valueType: `urn:li:dataType:datahub.${valueType}`,
        cardinality,
        entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
      });
    }
    await post(
      `${V2}/dataset`,
      Array.from({ length: 90 }, (_, i) => ({
        urn: datasetUrn(`pgs.t${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'snowflake' : 'hive'),
        aspects: {
          ...(i % 5 === 4
            ? {}
            : {
                datasetProperties: {
                  value: {
                    name: named.includes(i) ? names[named.indexOf(i)] : `${words[i % 4]} ${i}`,
                    ...(i % 4 === 0 ? { qualifiedName: `warehouse.${words[(i >> 1) % 4]}.t${i}` } : {}),
                    description: `about ${words[(i >> 2) % 4]}${i % 6 === 0 ? ' and Crème brûlée' : ''}`,
                  },
                },
              }),
          globalTags: { value: { tags: [{ tag: `urn:li:tag:t${i % 3}` }, ...(i % 7 === 0 ? [{ tag: 'urn:li:tag:pii' }] : [])] } },
          ...(i % 4 === 1 ? { schemaMetadata: { value: schemaMetadata([`customer_id`, `${words[i % 4]}.amount`, `Straße_${i}`]) } } : {}),
          ...(i % 8 === 2 ? { ownership: { value: { owners: [{ owner: `urn:li:corpuser:user${i % 3}`, type: 'DATAOWNER' }] } } } : {}),
          ...(i % 6 === 3 ? { subTypes: { value: { typeNames: [i % 4 === 3 ? 'View' : 'Table'] } } } : {}),
          structuredProperties: {
            value: {
              properties: [
                { propertyUrn: retention, values: [{ double: (i % 12) * 30 + (i % 5 === 0 ? 0.5 : 0) }] },
                ...(i % 2 === 0 ? [{ propertyUrn: tier, values: [{ string: ['gold', 'silver'][(i >> 1) % 2] }, ...(i % 10 === 0 ? [{ string: 'bronze' }] : [])] }] : []),
                ...(i % 3 === 1 ? [{ propertyUrn: since, values: [{ string: `2024-0${(i % 9) + 1}-1${i % 10}` }] }] : []),
              ],
            },
          },
          ...(i % 11 === 0 ? { status: { value: { removed: true } } } : {}),
        },
      })),
    );
    await post(
      `${V2}/chart`,
      Array.from({ length: 20 }, (_, i) => ({
        urn: `urn:li:chart:(looker,pgs.c${String(i).padStart(2, '0')})`,
        aspects: {
          chartInfo: { value: { title: `${words[i % 4]} chart`, description: i % 2 ? 'a chart of orders' : 'a chart', lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } } } },
          ...(i % 5 === 0 ? { globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }] } } } : {}),
        },
      })),
    );
    db = new Database(join(dir, 'urnbase.db'), { readonly: true });
    sqlite = new SqliteSearch(db);
    postgres = new PostgresSearch(database.pool);
    plans = [
      ['read whole, scored', new PostgresSearch(database.pool, Number.MAX_SAFE_INTEGER, 0)],
      ['walked, tiers', new PostgresSearch(database.pool, 0)],
      ['walked, tiers walked 3 entities then read', new PostgresSearch(database.pool, 0, undefined, 3)],
    ];
  });
  after(async () => {
    db?.close();
    await app?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const types = [
    { name: 'dataset', keyAspect: 'datasetKey' },
    { name: 'chart', keyAspect: 'chartKey' },
  ];
  const text = (word: string, prefix = true, columns?: TextCondition['columns']): TextCondition => ({ kind: 'text', words: [word], phrase: false, prefix, ...(columns ? { columns } : {}) });
  const phrase = (value: string, prefix = false, columns?: TextCondition['columns']): TextCondition => ({ kind: 'text', words: [value], phrase: true, prefix, ...(columns ? { columns } : {}) });
  const term = (field: string, op: Extract<Condition, { kind: 'term' }>['op'], values: string[], unique?: boolean): Condition => ({ kind: 'term', field, op, values, ...(unique ? { unique } : {}) });
  const conditions: Array<[string, Condition]> = [
    ['everything', { kind: 'all' }],
    ['nothing', { kind: 'none' }],
    ['one tag', term('tags', 'eq', ['urn:li:tag:t1'])],
    ['either tag', term('tags', 'eq', ['urn:li:tag:t0', 'urn:li:tag:pii'])],
    ['a tag prefix', term('tags', 'prefix', ['urn:li:tag:t'])],
    ['a tag suffix', term('tags', 'suffix', ['g:T2'])],
    ['a tag substring', term('tags', 'contains', ['TAG:P'])],
    ['a name range', term('name', 'gte', ['invoices'], true)],
    ['a name below', term('name', 'lt', ['customers 5'], true)],
    ['a URN exactly', { kind: 'urn', op: 'eq', values: [datasetUrn('pgs.t004', 'hive'), 'urn:li:chart:(looker,pgs.c03)'] }],
    ['a URN prefix', { kind: 'urn', op: 'prefix', values: ['urn:li:dataset:(urn:li:dataPlatform:snowflake,'] }],
    ['a URN suffix', { kind: 'urn', op: 'suffix', values: ['7,PROD)'] }],
    ['a URN substring', { kind: 'urn', op: 'contains', values: ['PGS.T01'] }],
    ['a number equal', { kind: 'number', field: retention, op: 'eq', value: 90, unique: true }],
    ['a number range', { kind: 'number', field: retention, op: 'gte', value: 150, unique: true }],
    ['a number below', { kind: 'number', field: retention, op: 'lt', value: 60.5 }],
    ['a date after', { kind: 'number', field: since, op: 'gt', value: Date.parse('2024-05-01T00:00:00Z'), unique: true }],
    ['a date at most', { kind: 'number', field: since, op: 'lte', value: Date.parse('2024-03-13T00:00:00Z'), unique: true }],
    ['a string property', term(tier, 'eq', ['gold'])],
    ['has a tier', { kind: 'exists', field: tier }],
    ['has retention', { kind: 'exists', field: retention }],
    ['has a description', term('_has', 'prefix', ['description@'])],
    ['has an owner', { kind: 'exists', field: 'owners' }],
    ['a subtype', term('subtypes', 'eq', ['View'])],
    ['removed', term('removed', 'eq', ['true'], true)],
    ['not removed', { kind: 'not', child: term('removed', 'eq', ['true'], true) }],
    ['a word', text('orders')],
    ['a word prefix', text('cust')],
    ['a whole word only', text('customers', false)],
    ['two words', { kind: 'and', children: [text('orders'), text('about')] }],
    ['a word within names', text('orders', true, ['name'])],
    ['a word within the qualified name', text('warehouse', false, ['qualifiedName'])],
    ['a word within descriptions', text('orders', true, ['description'])],
    ['a word within field paths', text('amount', false, ['fieldPaths'])],
    ['a word within keywords', text('t1', false, ['keywords'])],
    ['a word in names or keywords', text('pii', false, ['name', 'keywords'])],
    ['a phrase', phrase('about customers')],
    ['a phrase prefix', phrase('about cust', true)],
    ['a phrase across columns finds nothing', phrase('orders about')],
    ['a phrase within descriptions', phrase('crème brûlée', false, ['description'])],
    ['a dotted word', text('db.sales_orders')],
    ['an underscored field path', text('customer_id', false, ['fieldPaths'])],
    ['a word without accents', text('creme', false)],
    ['a word with accents', text('ÉVÉNEMENTS', false)],
    ['a letter with no decomposition', text('lodz', false)],
    ['a sharp s', text('straße', false)],
    ['quotes', text('"quoted"', false)],
    ['an apostrophe', text("o'brien", false)],
    ['no letters at all', text('...', false)],
    ['a word of a URN', text('snowflake', false)],
    ['words and a tag', { kind: 'and', children: [text('cust'), term('tags', 'eq', ['urn:li:tag:t2'])] }],
    ['a range but not a tag', { kind: 'and', children: [{ kind: 'number', field: retention, op: 'lt', value: 200, unique: true }, { kind: 'not', child: term('tags', 'eq', ['urn:li:tag:pii']) }] }],
    ['not a word', { kind: 'not', child: text('orders') }],
    ['one or the other', { kind: 'or', children: [text('invoices'), term(tier, 'eq', ['silver'], true)] }],
    ['words or words', { kind: 'or', children: [text('invoices', true, ['name']), text('chart')] }],
    ['a tag or no tier', { kind: 'or', children: [term('tags', 'eq', ['urn:li:tag:t1']), { kind: 'not', child: { kind: 'exists', field: tier } }] }],
    ['not a platform', { kind: 'not', child: term('platform', 'eq', ['urn:li:dataPlatform:hive'], true) }],
    ['nested', { kind: 'or', children: [{ kind: 'and', children: [text('events'), { kind: 'not', child: { kind: 'exists', field: tier } }] }, term('owners', 'eq', ['urn:li:corpuser:user1'])] }],
  ];
  const sorts: Array<[string, SortOrder]> = [
    ['urn', 'ASCENDING'],
    ['urn', 'DESCENDING'],
    ['name', 'ASCENDING'],
    ['name', 'DESCENDING'],
    ['qualifiedName', 'ASCENDING'],
  ];
  const facets = [
    { field: 'tags', numbers: false },
    { field: 'entity', numbers: false },
    { field: retention, numbers: true },
    { field: tier, numbers: false },
    { field: since, numbers: false },
  ];

  type Searcher = { search(query: SearchQuery): SearchResultLike | Promise<SearchResultLike> };
  type SearchResultLike = Awaited<ReturnType<PostgresSearch['search']>>;

  /** Every page of a query, in order, with the total and facets of the first page. */
  const scroll = async (search: Searcher, query: Omit<SearchQuery, 'after' | 'count'>, count = 9) => {
    const urns: string[] = [];
    const first = await search.search({ ...query, count });
    for (let page = first; ; ) {
      urns.push(...page.urns);
      if (!page.next) break;
      // Facets are the whole result's: asked for on the first page only.
      page = await search.search({ ...query, facets: [], after: page.next, count });
    }
    return { urns, total: first.total, facets: first.facets };
  };

  const agree = async (label: string, orders = sorts) => {
    for (const [name, condition] of conditions) {
      for (const includeRemoved of [false, true]) {
        for (const [by, order] of orders) {
          const query = { types, condition, includeRemoved, sort: { by, order }, facets };
          const expected = await scroll(sqlite, query);
          for (const [plan, search] of plans) {
            assert.deepEqual(await scroll(search, query), expected, `${label} (${plan}): ${name}${includeRemoved ? ', removed included' : ''}, by ${by} ${order}`);
          }
        }
      }
    }
  };

  it('agrees on every condition, in every order, removed entities hidden or shown', async () => {
    await agree('as written');
  });

  it('finds what each condition should (the comparison is not between two empty answers)', async () => {
    const empty = ['nothing', 'a phrase across columns finds nothing', 'no letters at all', 'a letter with no decomposition'];
    for (const [name, condition] of conditions) {
      const { total } = await postgres.search({ types, condition, includeRemoved: true, sort: { by: 'urn', order: 'ASCENDING' }, count: 1, facets: [] });
      assert.equal(total === 0, empty.includes(name), `${name}: ${total}`);
    }
  });

  const ranked: Array<[string, TextCondition[], Condition[]]> = [
    ['a word', [text('orders')], []],
    ['a word found in names, tags and descriptions', [text('t1')], []],
    ['two words', [text('orders'), text('about')], []],
    ['a phrase', [phrase('about customers')], []],
    ['a word within the description', [text('orders', true, ['description'])], []],
    ['a word in names or keywords only', [text('t2', false, ['name', 'keywords'])], []],
    ['a word in field paths', [text('amount', false)], []],
    ['words and a tag', [text('cust')], [term('tags', 'eq', ['urn:li:tag:t2'])]],
    ['words and a number', [text('orders'), text('about')], [{ kind: 'number', field: retention, op: 'gte', value: 0 }]],
  ];
  const rankedAgree = async (label: string) => {
    for (const [name, rank, rest] of ranked) {
      for (const includeRemoved of [false, true]) {
        const condition: Condition = rank.length + rest.length === 1 ? rank[0] : { kind: 'and', children: [...rank, ...rest] };
        const query = { types, condition, includeRemoved, sort: { by: 'relevance', order: 'DESCENDING' as const }, rank, facets };
        const expected = await scroll(sqlite, query, 3);
        assert.ok(expected.total > 0, `${name} finds something`);
        for (const [plan, search] of plans) {
          assert.deepEqual(await scroll(search, query, 3), expected, `${label} (${plan}): ${name}${includeRemoved ? ', removed included' : ''}`);
        }
      }
    }
  };

  it('ranks by relevance as SQLite does, ties in creation order', async () => {
    await rankedAgree('as written');
  });

  it('agrees after updates, aspect deletes and entity deletes', async () => {
    const ds = (i: number) => datasetUrn(`pgs.t${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'snowflake' : 'hive');
    await post(`${V2}/dataset/${enc(ds(1))}/datasetProperties`, { name: 'renamed invoices', description: 'now about events' });
    await post(`${V2}/dataset/${enc(ds(2))}/globalTags`, { tags: [{ tag: 'urn:li:tag:pii' }] });
    await post(`${V2}/dataset/${enc(ds(5))}/status`, { removed: false });
    await post(`${V2}/dataset/${enc(ds(6))}/status`, { removed: true });
    await post(`${V2}/dataset/${enc(ds(7))}/globalTags`, null, 'DELETE');
    await post(`${V2}/dataset/${enc(ds(9))}/schemaMetadata`, schemaMetadata(['invoice_total']));
    await post(`${V2}/dataset/${enc(ds(13))}/structuredProperties`, null, 'DELETE');
    await post(`${V2}/dataset/${enc(ds(8))}`, null, 'DELETE');
    await post(`${V2}/chart/${enc('urn:li:chart:(looker,pgs.c04)')}`, null, 'DELETE');
    // Created again after its delete: a new entity, last in creation order.
    await post(`${V2}/dataset/${enc(ds(8))}/datasetProperties`, { name: 'orders again', description: 'about orders' });
    await agree('after changes', [sorts[0], sorts[3]]);
    await rankedAgree('after changes');
  });
});

function schemaMetadata(fieldPaths: string[]) {
  return {
    schemaName: 'schema',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: fieldPaths.map((fieldPath) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } })),
  };
}
