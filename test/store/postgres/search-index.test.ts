import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { planIndex, writeIndex } from '../../../src/store/postgres/search-index.js';
import type { IndexWrite } from '../../../src/store/search-types.js';
import { postgresAvailable, PG_SKIP_MESSAGE } from '../../pg.js';
import { createSearchDatabase, type SearchDatabase } from './search-mirror.js';

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,race.orders,PROD)';
const text = (aspect: string, words: Partial<IndexWrite['text'] & object>): IndexWrite => ({
  urn,
  aspect,
  keyAspect: 'datasetKey',
  removeTerms: [],
  addTerms: [],
  removeNumbers: [],
  addNumbers: [],
  text: words,
});

/** The PostgreSQL index under writers in two processes (replicas) at once. */
describe('PostgreSQL search index, written concurrently', async () => {
  const available = await postgresAvailable();
  let db: SearchDatabase;
  before(async () => {
    if (available) db = await createSearchDatabase();
  });
  after(async () => {
    if (available) await db.drop();
  });

  it('keeps both texts when two transactions write different aspects of one entity', { skip: available ? false : PG_SKIP_MESSAGE }, async () => {
    await writeIndex(db.pool as never, [text('datasetKey', { keywords: 'race orders' })]);
    const [one, two] = [await db.pool.connect(), await db.pool.connect()];
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await writeIndex(one, [text('datasetProperties', { name: 'zephyr' })]);
      // The second writer must wait for the first, then build the document from both texts.
      const second = writeIndex(two, [text('globalTags', { keywords: 'boreas' })]).then(() => two.query('COMMIT'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await one.query('COMMIT');
      await second;
    } finally {
      one.release();
      two.release();
    }
    const { rows } = await db.pool.query<{ zephyr: boolean; boreas: boolean }>(
      `SELECT doc @@ to_tsquery('simple', 'zephyr:*') OR doc::text LIKE '%zephyr%' AS zephyr,
              doc @@ to_tsquery('simple', 'boreas:*') OR doc::text LIKE '%boreas%' AS boreas
         FROM search_entities WHERE urn = $1`,
      [urn],
    );
    assert.deepEqual(rows, [{ zephyr: true, boreas: true }]);
  });

  it('makes an entity anew, with a new number and only its new text, when one list of writes deletes and recreates it', { skip: available ? false : PG_SKIP_MESSAGE }, async () => {
    const again = 'urn:li:dataset:(urn:li:dataPlatform:hive,again,PROD)';
    const key = (words: IndexWrite['text']): IndexWrite => ({ ...text('datasetKey', {}), urn: again, text: words });
    await writeIndex(db.pool as never, [key({ name: 'first' })]);
    const before = await db.pool.query<{ id: string }>('SELECT id FROM search_entities WHERE urn = $1', [again]);
    await writeIndex(db.pool as never, [key(null), key({ name: 'second' })]);
    const { rows } = await db.pool.query<{ id: string; doc: string }>('SELECT id, doc::text AS doc FROM search_entities WHERE urn = $1', [again]);
    assert.equal(rows.length, 1);
    assert.ok(Number(rows[0].id) > Number(before.rows[0].id));
    assert.equal(rows[0].doc, "'second':1A");
  });

  // Tag writes to existing datasets, each taking and dropping tags shared with every other writer.
  it('lets 8 transactions change rows of the same tags at once without a deadlock, and keeps them exact', { skip: available ? false : PG_SKIP_MESSAGE }, async () => {
    const datasets = Array.from({ length: 32 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,counts.${i},PROD)`);
    const tags = Array.from({ length: 8 }, (_, i) => `urn:li:tag:t${i}`);
    const held = new Map<string, string[]>(datasets.map((d) => [d, []]));
    const pick = () => tags.filter(() => Math.random() < 0.5).sort(() => Math.random() - 0.5);
    const tagWrite = (dataset: string): IndexWrite => {
      const next = pick();
      const before = held.get(dataset)!;
      held.set(dataset, next);
      const pairs = (list: string[]) => list.map((t): [string, string] => ['tags', t]);
      return { urn: dataset, aspect: 'globalTags', keyAspect: 'datasetKey', removeTerms: pairs(before.filter((t) => !next.includes(t))), addTerms: pairs(next.filter((t) => !before.includes(t))), removeNumbers: [], addNumbers: [] };
    };
    // Each writer owns 4 datasets (as the aspect locks would make it) and rewrites their tags, in random order.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        const client = await db.pool.connect();
        try {
          for (let round = 0; round < 15; round++) {
            await client.query('BEGIN');
            await writeIndex(client, datasets.slice(w * 4, w * 4 + 4).map(tagWrite));
            await client.query('COMMIT');
          }
        } finally {
          client.release();
        }
      }),
    );
    const { rows } = await db.pool.query<{ value: string; n: string }>(
      `SELECT value, count(*) AS n FROM search_terms WHERE field = 'tags' GROUP BY value ORDER BY value`,
    );
    const expected = new Map<string, number>();
    for (const list of held.values()) for (const t of list) expected.set(t, (expected.get(t) ?? 0) + 1);
    assert.deepEqual(rows.map((r) => [r.value, Number(r.n)]), [...expected].sort(([a], [b]) => (a < b ? -1 : 1)));
    const counted = await db.pool.query<{ value: string; n: string }>(`SELECT value, n FROM search_term_counts WHERE field = 'tags' AND type = 'dataset' AND n <> 0 ORDER BY value`);
    assert.deepEqual(counted.rows.map((r) => [r.value, Number(r.n)]), [...expected].sort(([a], [b]) => (a < b ? -1 : 1)));
  });

  // After the writes above (entities made, deleted and made anew; rows taken and dropped at once).
  it('keeps every count equal to the rows it counts', { skip: available ? false : PG_SKIP_MESSAGE }, async () => {
    const numbers: IndexWrite = { ...text('structuredProperties', {}), text: undefined, addNumbers: [['days', 30], ['days', 60]] };
    await writeIndex(db.pool as never, [numbers, { ...numbers, addNumbers: [['days', 90]], removeNumbers: [['days', 30], ['days', 45]] }]);
    const same = async (rows: string, counts: string) => {
      const [actual, expected] = await Promise.all([db.pool.query(`${counts} ORDER BY 1, 2, 3`), db.pool.query(`${rows} ORDER BY 1, 2, 3`)]);
      assert.ok(expected.rows.length > 0, rows);
      assert.deepEqual(actual.rows, expected.rows);
    };
    await same(`SELECT field, split_part(urn, ':', 3) AS type, value, count(*)::int AS n FROM search_terms GROUP BY 1, 2, 3`, 'SELECT field, type, value, n::int FROM search_term_counts WHERE n <> 0');
    await same(`SELECT field, split_part(urn, ':', 3) AS type, value, count(*)::int AS n FROM search_numbers GROUP BY 1, 2, 3`, 'SELECT field, type, value, n::int FROM search_number_counts WHERE n <> 0');
    await same(`SELECT type, count(*)::int AS n, 0 FROM search_entities GROUP BY 1`, 'SELECT type, n::int, 0 FROM search_type_counts WHERE n <> 0');
  });
});

/** planIndex nets a list of index writes: each row once, as the writes applied in order would leave it. */
describe('PostgreSQL index plan', () => {
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)';
  const tags = (aspect: string, remove: string[], add: string[], at = urn): IndexWrite => ({
    urn: at, aspect, keyAspect: 'datasetKey', removeTerms: remove.map((t) => ['tags', t]), addTerms: add.map((t) => ['tags', t]), removeNumbers: [], addNumbers: [],
  });

  it('keeps the last change to a row: removed then added is added, added then removed is removed', () => {
    const plan = planIndex([tags('globalTags', [], ['a', 'b']), tags('editableSchemaMetadata', ['a'], []), tags('globalTags', ['b'], ['b'])]);
    assert.deepEqual(plan.terms, { gone: [['tags', 'a', urn]], added: [['tags', 'b', urn]] });
  });

  it('keeps rows of different entities and of numbers apart from terms', () => {
    const plan = planIndex([
      tags('globalTags', [], ['a']),
      tags('globalTags', ['a'], [], other),
      { ...tags('datasetProperties', [], []), addNumbers: [['size', 1]], removeNumbers: [['size', 2]] },
    ]);
    assert.deepEqual(plan.terms, { gone: [['tags', 'a', other]], added: [['tags', 'a', urn]] });
    assert.deepEqual(plan.numbers, { gone: [['size', 2, urn]], added: [['size', 1, urn]] });
  });

  it('deletes an entity whose key goes and makes it anew when the key comes back, and keeps each aspect\'s last text', () => {
    const plan = planIndex([text('datasetKey', { name: 'one' }), text('globalTags', { keywords: 'x' }), { ...text('datasetKey', {}), text: null }, text('datasetKey', { name: 'two' })]);
    assert.deepEqual([plan.entitiesGone, plan.entitiesNew], [[urn], [urn]]);
    assert.deepEqual(plan.docs, [
      { urn, aspect: 'datasetKey', text: { name: 'two' } },
      { urn, aspect: 'globalTags', text: { keywords: 'x' } },
    ]);
    assert.deepEqual(plan.texts, [urn]);
  });
});
