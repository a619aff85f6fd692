import pg from 'pg';
import type { Store } from '../../src/store/store.js';
import { clearIndex, PG_SEARCH_SCHEMA, writeIndex } from '../../src/store/postgres/search.js';

/**
 * A PostgreSQL database of a test's own (created, migrated with the search schema, dropped after),
 * and a store that copies every index write the write path commits into it: the same writes, in
 * the same order, as the SQLite index receives.
 */

const SERVER = process.env.URNBASE_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';

/** Whether a PostgreSQL server answers (tests skip, saying so, when none does). */
export async function serverAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres`, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestDatabase {
  pool: pg.Pool;
  drop(): Promise<void>;
}

export async function createSearchDatabase(): Promise<TestDatabase> {
  const name = `urnbase_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: `${SERVER}/${name}`, max: 4 });
  // The drop ends any connection still open; that is expected, not a failure.
  pool.on('error', () => undefined);
  await pool.query(PG_SEARCH_SCHEMA);
  return {
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
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
