import pg from 'pg';
import { storeError } from './postgres-errors.js';
import { migratePostgres } from './postgres-schema.js';

/** Runs the PostgreSQL migrations on a database alone (`urnbase migrate`); returns how many ran. */
export async function migratePostgresAt(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  try {
    return await migratePostgres(pool);
  } catch (error) {
    throw storeError(error);
  } finally {
    await pool.end();
  }
}
