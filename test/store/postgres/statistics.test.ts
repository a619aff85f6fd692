import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PostgresStore } from '../../../src/store/postgres/store.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE, type TestDatabase } from '../../pg.js';

const sm = { version: '1', lastObserved: 1, aspectCreated: { time: 1, actor: 'a' }, aspectModified: { time: 1, actor: 'a' } };

/** The store keeps the planner's statistics current itself (statistics.ts): autovacuum is off on CI's PostgreSQL. */
describe('PostgreSQL planner statistics', async () => {
  const available = await postgresAvailable();
  const skip = available ? false : PG_SKIP_MESSAGE;
  let database: TestDatabase;
  let store: PostgresStore;
  let admin: pg.Client;
  before(async () => {
    if (!available) return;
    database = await createTestDatabase();
    store = await PostgresStore.open(database.url);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    if (!available) return;
    await admin.end();
    await store.close();
    await database.drop();
  });

  const analysed = async (table: string) =>
    (await admin.query<{ at: Date | null }>('SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = $1', [table])).rows[0].at !== null;

  it('analyses a table changed by more than a tenth, once, and waits while another replica analyses', { skip }, async () => {
    assert.equal(await analysed('aspects'), false);
    await store.commit({
      writes: Array.from({ length: 200 }, (_, i) => ({
        kind: 'put' as const, urn: `urn:li:dataset:(urn:li:dataPlatform:hive,stats.${i},PROD)`, entityType: 'dataset', aspect: 'status', value: { removed: false }, systemMetadata: sm, expectedVersion: 0,
      })),
      events: [],
    });
    // Another replica analysing: this one skips its turn.
    await admin.query('SELECT pg_advisory_lock(7202613)');
    // The writers' table statistics reach pg_stat_user_tables within seconds (each backend reports them when idle).
    let done: string[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && !(await admin.query(`SELECT 1 FROM pg_stat_user_tables WHERE relname = 'aspects' AND n_mod_since_analyze >= 200`)).rowCount; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual(await store.statistics.refresh(), []);
    assert.equal(await analysed('aspects'), false);
    await admin.query('SELECT pg_advisory_unlock(7202613)');
    done = await store.statistics.refresh();
    assert.ok(done.includes('aspects'), done.join(', '));
    assert.equal(await analysed('aspects'), true);
    // Nothing changed since: nothing to do.
    assert.deepEqual(await store.statistics.refresh(), []);
  });
});
