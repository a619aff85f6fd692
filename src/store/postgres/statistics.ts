import type { StorePool } from './pool.js';

/**
 * The tables whose plans depend on their statistics, search's first: the others' plans are single-row
 * reads. Edges too: never analysed, a lineage walk's step (500 ends at a time) was planned as a
 * scan of every edge of its relationships, 150–500 ms a step at 300k edges where edges_in answers in 3.
 */
const TABLES = ['search_entities', 'search_terms', 'search_numbers', 'search_docs', 'search_term_counts', 'search_number_counts', 'search_type_counts', 'aspects', 'aspect_history', 'change_log', 'tokens', 'timeseries_points', 'edges'];
/**
 * The tables read by index-only scans, vacuumed as they grow (the visibility map says which pages
 * need no visit); the others are read row by row through their keys. In the one 1M load that
 * vacuumed aspects as it grew (5M rows), a batch ran past the 10 s query timeout at ~950k, during
 * that vacuum and a 43 s checkpoint; the load without it did not. Edges: a lineage walk reads
 * edges_in and the key alone (a 100,000-entity closure at 1M datasets: 2.1 s unvacuumed, 1.8 s).
 */
const INDEX_ONLY = ['search_entities', 'search_terms', 'search_numbers', 'search_term_counts', 'search_number_counts', 'edges'];
/** Any fixed number: one replica analyses at a time. */
const LOCK = 7_202_613;

/**
 * Keeps what the planner relies on current, as autovacuum would: a table changed by more than a
 * tenth of its rows (and 50) since it was last analysed is analysed again; one with dead rows of
 * more than a fifth (and 50) is vacuumed too, and so is a search table that grew by a fifth,
 * which marks its pages all-visible so that it answers from its indexes alone (index-only scans).
 * Autovacuum may be off (it is on this project's CI machines) or lag behind a bulk load, and a
 * table never analysed is planned on guesses: with them, loading read all of search_docs once per
 * batch (a sequential scan where one index probe per entity was due) and fell from 1,000 to 470
 * datasets/s by 250k. When autovacuum keeps up, nothing is left to do here. One replica at a time
 * (an advisory lock; the others skip their turn).
 */
export class PlannerStatistics {
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;

  constructor(
    private readonly db: StorePool,
    private readonly intervalMs = 10_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Analyses (and vacuums) the tables that changed enough; the names of those it did. */
  refresh(): Promise<string[]> {
    // A failure (the database unavailable for a while) waits for the next turn: nothing depends on this one.
    this.running ??= this.analyse()
      .catch(() => [])
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async analyse(): Promise<string[]> {
    const client = await this.db.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK]);
      if (!rows[0].locked) return [];
      try {
        const grown = `relname = ANY($2) AND n_ins_since_vacuum > 1000 + 0.2 * greatest(n_live_tup, 0)`;
        const dead = 'n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0)';
        const stale = await client.query<{ relname: string; vacuum: boolean }>(
          `SELECT relname, (${grown}) OR ${dead} AS vacuum
             FROM pg_stat_user_tables
            WHERE schemaname = current_schema() AND relname = ANY($1)
              AND (n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0) OR (${grown}) OR ${dead})
            ORDER BY array_position($1, relname::text)`,
          [TABLES, INDEX_ONLY],
        );
        // A big table's vacuum may take longer than a query may.
        await client.query('SET statement_timeout = 0');
        try {
          for (const { relname, vacuum } of stale.rows) await client.query(`${vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${client.escapeIdentifier(relname)}`);
        } finally {
          await client.query('RESET statement_timeout');
        }
        return stale.rows.map((r) => r.relname);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      }
    } finally {
      client.release();
    }
  }
}
