import pg from 'pg';
import { storeError } from './errors.js';
import { PG_SEARCH_SCHEMA, PG_SEARCH_TRIGRAMS } from './search-index.js';

/**
 * PostgreSQL schema migrations, applied in order; `schema_migrations` records which have run.
 * Append new steps, never edit old ones. JSON is kept as TEXT (jsonb would reorder keys), and text
 * keys use COLLATE "C" so URNs sort by bytes, as SQLite sorts them.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE aspects (
     urn             TEXT COLLATE "C" NOT NULL,
     aspect          TEXT COLLATE "C" NOT NULL,
     entity_type     TEXT COLLATE "C" NOT NULL,
     metadata        TEXT   NOT NULL,
     system_metadata TEXT   NOT NULL,
     version         BIGINT NOT NULL,  -- systemMetadata.version as a number, for compare-and-set
     created_on      BIGINT NOT NULL,
     created_by      TEXT   NOT NULL,
     PRIMARY KEY (urn, aspect)
   );
   CREATE INDEX aspects_by_name ON aspects (aspect, urn);
   CREATE TABLE aspect_history (
     urn             TEXT COLLATE "C" NOT NULL,
     aspect          TEXT COLLATE "C" NOT NULL,
     version         BIGINT NOT NULL,  -- systemMetadata.version of this earlier value
     metadata        TEXT   NOT NULL,
     system_metadata TEXT   NOT NULL,
     created_on      BIGINT NOT NULL,
     created_by      TEXT   NOT NULL,
     PRIMARY KEY (urn, aspect, version)
   );
   CREATE TABLE change_log (
     sequence        BIGSERIAL PRIMARY KEY,
     urn             TEXT   NOT NULL,
     entity_type     TEXT   NOT NULL,
     aspect          TEXT   NOT NULL,
     change_type     TEXT   NOT NULL,
     created_on      BIGINT NOT NULL,
     created_by      TEXT   NOT NULL,
     value           TEXT,
     previous_value  TEXT,
     system_metadata TEXT
   );
   CREATE INDEX change_log_by_time ON change_log (created_on);
   CREATE TABLE tokens (
     id           TEXT PRIMARY KEY,
     name         TEXT   NOT NULL,
     role         TEXT   NOT NULL,
     actor        TEXT   NOT NULL,
     hash         TEXT   NOT NULL UNIQUE,
     created_at   BIGINT NOT NULL,
     created_by   TEXT   NOT NULL,
     expires_at   BIGINT,
     last_used_at BIGINT,
     revoked_at   BIGINT
   );
   CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  PG_SEARCH_SCHEMA,
  PG_SEARCH_TRIGRAMS,
];

/** Any fixed number: the lock replicas starting together queue on. */
const MIGRATION_LOCK = 7_202_611;

/**
 * Runs the steps not yet recorded, under a session advisory lock so that replicas starting
 * together take turns (the second finds the work done). Returns how many ran.
 */
export async function migratePostgres(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (step INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const { rows } = await client.query<{ done: number | null }>('SELECT max(step) AS done FROM schema_migrations');
      const done = rows[0].done ?? 0;
      for (let i = done; i < PG_MIGRATIONS.length; i++) {
        await client.query('BEGIN');
        try {
          await client.query(PG_MIGRATIONS[i]);
          await client.query('INSERT INTO schema_migrations (step, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return PG_MIGRATIONS.length - done;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

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
