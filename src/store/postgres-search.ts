import type pg from 'pg';
import type { IndexWrite, SearchQuery, SearchResult } from './search-types.js';

/**
 * The search index on PostgreSQL: the same conditions as SQLite's (search-types.ts), with tsvector
 * + GIN for full text and pg_trgm for contains/prefix, and the same narrow keyword and number tables.
 * (Work in progress: the interface the PostgreSQL store calls; until it is done, index writes are
 * dropped and searches fail.)
 */

/** DDL of the index tables, run as one migration step. */
export const PG_SEARCH_SCHEMA = `SELECT 1`;

/** Applies a request's index writes inside the caller's transaction. */
export async function writeIndex(_client: pg.ClientBase, _writes: readonly IndexWrite[]): Promise<void> {}

/** Empties the index tables (to rebuild them), inside the caller's transaction. */
export async function clearIndex(_client: pg.ClientBase): Promise<void> {}

export class PostgresSearch {
  constructor(private readonly pool: pg.Pool) {}

  async search(_query: SearchQuery): Promise<SearchResult> {
    void this.pool;
    throw new Error('search on PostgreSQL is not implemented yet');
  }
}
