import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeIndex } from '../../src/store/postgres-search.js';
import type { IndexWrite } from '../../src/store/search-types.js';
import { createSearchDatabase, serverAnswers, type TestDatabase } from './postgres-fixture.js';

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
  const available = await serverAnswers();
  let db: TestDatabase;
  before(async () => {
    if (available) db = await createSearchDatabase();
  });
  after(async () => {
    if (available) await db.drop();
  });

  it('keeps both texts when two transactions write different aspects of one entity', { skip: available ? false : 'PostgreSQL not reachable: skipping' }, async () => {
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
});
