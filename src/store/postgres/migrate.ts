import pg from 'pg';
import { storeError } from './errors.js';

/**
 * PostgreSQL's schema: its migrations, in PG_MIGRATIONS (the search index's two steps are declared
 * first because the list refers to them), and the runner that applies them, at start or by
 * `urnbase migrate`.
 */

/** Migration 2: the search index's tables (written by search-index.ts). */
export const PG_SEARCH_SCHEMA = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE search_entities (
  id    bigserial PRIMARY KEY,
  urn   text COLLATE "C" NOT NULL UNIQUE,
  type  text COLLATE "C" NOT NULL,
  doc   tsvector NOT NULL DEFAULT ''
);
CREATE INDEX search_entities_by_type ON search_entities (type, urn);
CREATE INDEX search_entities_text ON search_entities USING gin (doc);
CREATE TABLE search_terms (
  field text COLLATE "C" NOT NULL,
  value text COLLATE "C" NOT NULL,
  urn   text COLLATE "C" NOT NULL,
  PRIMARY KEY (field, value, urn)
);
CREATE INDEX search_terms_by_field ON search_terms (field, urn);
CREATE INDEX search_terms_by_urn ON search_terms (urn);
-- Suffixes and substrings (LIKE '%…'), of values and of URNs.
CREATE INDEX search_terms_trigrams ON search_terms USING gin (value gin_trgm_ops);
CREATE INDEX search_entities_trigrams ON search_entities USING gin (urn gin_trgm_ops);
CREATE TABLE search_numbers (
  field text COLLATE "C" NOT NULL,
  value double precision NOT NULL,
  urn   text COLLATE "C" NOT NULL,
  PRIMARY KEY (field, value, urn)
);
CREATE INDEX search_numbers_by_field ON search_numbers (field, urn);
CREATE TABLE search_term_counts (
  field text COLLATE "C" NOT NULL,
  type  text COLLATE "C" NOT NULL,
  value text COLLATE "C" NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (field, type, value)
);
CREATE TABLE search_number_counts (
  field text COLLATE "C" NOT NULL,
  type  text COLLATE "C" NOT NULL,
  value double precision NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (field, type, value)
);
CREATE TABLE search_docs (
  urn            text COLLATE "C" NOT NULL,
  aspect         text COLLATE "C" NOT NULL,
  name           text,
  qualified_name text,
  description    text,
  field_paths    text,
  keywords       text,
  PRIMARY KEY (urn, aspect)
);
`;

/**
 * Migration 3: the trigram indexes serve suffix and substring matches only. On the columns
 * themselves they also answer `=` (pg_trgm ≥ 1.4), and with a growing table's stale statistics the
 * planner probed URNs through them: 7 ms a probe where the unique btree takes microseconds, facets
 * of a few hundred entities took seconds. On lower(column) no equality can pick them.
 */
export const PG_SEARCH_TRIGRAMS = `
DROP INDEX search_terms_trigrams;
DROP INDEX search_entities_trigrams;
CREATE INDEX search_terms_trigrams ON search_terms USING gin (lower(value) gin_trgm_ops);
CREATE INDEX search_entities_trigrams ON search_entities USING gin (lower(urn) gin_trgm_ops);
`;

/**
 * Migration 4: no per-value count tables. Search never read them (it counts its matches itself),
 * and every writer of a common value (a platform, a tag) updated the same count row
 * and held its lock to COMMIT: all writers of that value ran one at a time.
 */
export const PG_DROP_COUNTS = `
DROP TABLE search_term_counts;
DROP TABLE search_number_counts;
`;

/**
 * Migration 5: per-value counts again, so that a total is read, not counted: entities per
 * (field, type, value) of the keyword and number tables, and per type. Unlike migration 4's
 * tables they are moved only after the event lock is taken (search-index.ts), which every writer
 * holds to COMMIT already: a common value's row no longer queues its writers behind each other
 * while they do the rest of their work. Filled from the index as it stands; the tables it counts
 * are locked meanwhile so no writer moves them between the count and the commit.
 */
export const PG_SEARCH_COUNTS = `
LOCK TABLE search_entities, search_terms, search_numbers IN SHARE MODE;
CREATE TABLE search_term_counts (
  field text COLLATE "C" NOT NULL,
  type  text COLLATE "C" NOT NULL,
  value text COLLATE "C" NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (field, type, value)
);
CREATE TABLE search_number_counts (
  field text COLLATE "C" NOT NULL,
  type  text COLLATE "C" NOT NULL,
  value double precision NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (field, type, value)
);
CREATE TABLE search_type_counts (
  type text COLLATE "C" PRIMARY KEY,
  n    bigint NOT NULL
);
INSERT INTO search_term_counts SELECT field, split_part(urn, ':', 3), value, count(*) FROM search_terms GROUP BY 1, 2, 3;
INSERT INTO search_number_counts SELECT field, split_part(urn, ':', 3), value, count(*) FROM search_numbers GROUP BY 1, 2, 3;
INSERT INTO search_type_counts SELECT type, count(*) FROM search_entities GROUP BY type;
`;

/**
 * Migration 6: a number condition's page walks the field's rows in URN order and tests each value
 * (search-sql.ts, walkSql); with the value in the index the walk reads the index alone, where it
 * read a table row per entry (50k of them, 480 ms, before 11 matches of `retention > 900` at 1M).
 * And no index of keyword rows by URN alone: every probe names its field, which (field, urn)
 * serves; the other cost a write per row (243 MB at 1M datasets).
 */
export const PG_NUMBERS_WALK = `
DROP INDEX search_numbers_by_field;
CREATE INDEX search_numbers_by_field ON search_numbers (field, urn) INCLUDE (value);
DROP INDEX search_terms_by_urn;
`;

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
  PG_DROP_COUNTS,
  PG_SEARCH_COUNTS,
  PG_NUMBERS_WALK,
  // Timeseries aspects (timeseries.ts): points apart from versioned aspects, keyed as DataHub keys
  // its documents; the key answers an entity's latest point and time ranges, the second index a
  // scroll over an aspect (ties by id) and retention.
  `CREATE TABLE timeseries_points (
     id               bigserial PRIMARY KEY,
     urn              text COLLATE "C" NOT NULL,
     aspect           text COLLATE "C" NOT NULL,
     entity_type      text COLLATE "C" NOT NULL,
     timestamp_millis bigint NOT NULL,
     point_key        text COLLATE "C" NOT NULL,
     value            text NOT NULL,
     system_metadata  text NOT NULL,
     created_on       bigint NOT NULL,
     created_by       text NOT NULL,
     UNIQUE (urn, aspect, timestamp_millis, point_key)
   );
   CREATE INDEX timeseries_points_by_time ON timeseries_points (aspect, timestamp_millis, id);`,
  // The graph (graph.ts), as on SQLite: an edge per (source, relationship, destination) and
  // aspect naming it; out of an entity by the key, into it by edges_in, by type by edges_by_type.
  `CREATE TABLE edges (
     source           text COLLATE "C" NOT NULL,
     relationship     text COLLATE "C" NOT NULL,
     destination      text COLLATE "C" NOT NULL,
     owner            text COLLATE "C" NOT NULL,
     aspect           text COLLATE "C" NOT NULL,
     source_type      text COLLATE "C" NOT NULL,
     destination_type text COLLATE "C" NOT NULL,
     properties       text,
     PRIMARY KEY (source, relationship, destination, owner, aspect)
   );
   CREATE INDEX edges_in ON edges (destination, relationship, source);
   CREATE INDEX edges_by_type ON edges (relationship, source, destination);`,
  // As on SQLite: keyed by relationship first (scans by type), no edges_by_type, `owner` '' when
  // it is the source. Derived data: dropped here, drawn again at the next start.
  `DROP TABLE edges;
   CREATE TABLE edges (
     relationship     text COLLATE "C" NOT NULL,
     source           text COLLATE "C" NOT NULL,
     destination      text COLLATE "C" NOT NULL,
     owner            text COLLATE "C" NOT NULL,
     aspect           text COLLATE "C" NOT NULL,
     source_type      text COLLATE "C" NOT NULL,
     destination_type text COLLATE "C" NOT NULL,
     properties       text,
     PRIMARY KEY (relationship, source, destination, owner, aspect)
   );
   CREATE INDEX edges_in ON edges (destination, relationship, source);
   DELETE FROM search_meta WHERE key = 'graph';`,
  // As on SQLite: the soft-deleted entities alone, for a lineage walk's check of what it reached
  // (graph.ts); the predicate is the queries' own, so that the planner can prove it.
  `CREATE INDEX aspects_soft_deleted ON aspects (urn) WHERE aspect = 'status' AND (metadata::jsonb ->> 'removed') = 'true';`,
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

/** Runs the PostgreSQL migrations on a connection of their own, without timeouts (at start, or `urnbase migrate`); returns how many ran. */
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

/** Whether the database holds urnbase's schema (its migration table), asked without creating anything. */
export async function hasPostgresSchema(url: string): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  try {
    const { rows } = await pool.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    return rows[0].present;
  } catch (error) {
    throw storeError(error);
  } finally {
    await pool.end();
  }
}
