import pg from 'pg';
import { PG_DROP_COUNTS, PG_NUMBERS_WALK, PG_SEARCH_COUNTS, PG_SEARCH_SCHEMA, PG_SEARCH_TRIGRAMS } from '../../../src/store/postgres/migrate.js';
import { clearIndex, writeIndex } from '../../../src/store/postgres/search-index.js';
import type { Store } from '../../../src/store/store.js';
import { createTestDatabase } from '../../pg.js';

/**
 * A PostgreSQL database of a test's own holding the search index alone (created by test/pg.ts,
 * dropped after), and a store that copies every index write the write path commits into it: the
 * same writes, in the same order, as the SQLite index receives.
 */

export interface SearchDatabase {
  pool: pg.Pool;
  drop(): Promise<void>;
}

export async function createSearchDatabase(): Promise<SearchDatabase> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // The drop ends any connection still open; that is expected, not a failure.
  pool.on('error', () => undefined);
  // The search index's migrations, as a store's database has them.
  await pool.query(`BEGIN; ${[PG_SEARCH_SCHEMA, PG_SEARCH_TRIGRAMS, PG_DROP_COUNTS, PG_SEARCH_COUNTS, PG_NUMBERS_WALK].join('\n')} COMMIT;`);
  return {
    pool,
    async drop() {
      await pool.end();
      await database.drop();
    },
  };
}

/** In one transaction, as the PostgreSQL store will. */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The store, with its committed index writes (and index clearing) repeated on PostgreSQL, one commit at a time. */
export function mirrorIndex(store: Store, pool: pg.Pool): Store {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'commit') {
        return (batch: Parameters<Store['commit']>[0]) =>
          serial(async () => {
            await target.commit(batch);
            if (batch.index && batch.index.length > 0) await inTransaction(pool, (client) => writeIndex(client, batch.index!));
          });
      }
      if (property === 'clearSearchIndex') {
        return () =>
          serial(async () => {
            await target.clearSearchIndex();
            await inTransaction(pool, (client) => clearIndex(client));
          });
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
