import { typedEdges } from '../adjacent-edges.js';
import type { EdgeFilter, EdgeQuery, StoredEdge } from '../graph-types.js';
import type { SearchQuery, SearchResult } from '../search-types.js';
import type { AspectVersion, CommitBatch, EventFilter, LoggedEvent, PointCursor, PointQuery, PointRemoval, Store, StoredAspect, StoredPoint, StoreLocation, TokenRecord } from '../store.js';
import { PostgresChangeLog } from './change-log.js';
import { storeError } from './errors.js';
import { migratePostgresAt } from './migrate.js';
import { StorePool, type PoolOptions } from './pool.js';
import { AspectReads } from './aspect-reads.js';
import { adjacentSql, edgesSql, softDeletedSql } from './graph.js';
import { PostgresGroupCommit } from './group-commit.js';
import { clearIndex } from './search-index.js';
import { PostgresSearch } from './search.js';
import { PlannerStatistics } from './statistics.js';
import { PostgresPoints } from './timeseries.js';
import { PostgresTokens } from './tokens.js';

/**
 * The store for several replicas: PostgreSQL through a pg.Pool. The same tables as SQLite's
 * (latest values in `aspects`, earlier ones in `aspect_history`), JSON kept as TEXT. No cache of
 * latest values: other replicas write the same database. This class opens the pool (running the
 * migrations) and composes the parts: reads, commits (writer.ts), search, change log, tokens, and
 * the planner's statistics.
 */
export class PostgresStore implements Store {
  readonly location: StoreLocation;
  private readonly db: StorePool;
  private readonly reads: AspectReads;
  private readonly searcher: PostgresSearch;
  private readonly changeLog: PostgresChangeLog;
  private readonly tokens: PostgresTokens;
  private readonly points: PostgresPoints;
  private readonly commits: PostgresGroupCommit;
  readonly statistics: PlannerStatistics;

  private constructor(readonly url: string, options: PoolOptions) {
    this.location = { kind: 'postgres', url };
    this.db = new StorePool(url, options);
    this.reads = new AspectReads(this.db);
    this.searcher = new PostgresSearch(this.db.pool);
    this.changeLog = new PostgresChangeLog(this.db);
    this.tokens = new PostgresTokens(this.db);
    this.points = new PostgresPoints(this.db);
    this.commits = new PostgresGroupCommit(this.db);
    this.statistics = new PlannerStatistics(this.db);
  }

  /** Opens the pool and runs the schema migrations not yet applied. */
  static async open(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
    // On a connection of its own, without the pool's query timeout: a step that rewrites a big
    // table takes as long as it takes (migration 5 counts every index row).
    await migratePostgresAt(url);
    const store = new PostgresStore(url, options);
    store.statistics.start();
    return store;
  }

  getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    return this.reads.getLatestMany([urn], aspects);
  }

  getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    return this.reads.getLatestMany(urns, aspects);
  }

  getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    return this.reads.getVersion(urn, aspect, version);
  }

  getHistory(urn: string, since: number, limit: number): Promise<AspectVersion[]> {
    return this.reads.getHistory(urn, since, limit);
  }

  scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    return this.reads.scanAspect(aspect, after, limit);
  }

  listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]> {
    return this.reads.listUrns(keyAspect, after, limit);
  }

  getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    return this.reads.getLatestRange(entityType, after, last, aspects);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    try {
      return await this.searcher.search(query);
    } catch (error) {
      throw storeError(error);
    }
  }

  async searchIndexVersion(): Promise<string> {
    const rows = await this.db.rows<{ value: string }>(`SELECT value FROM search_meta WHERE key = 'version'`);
    return rows[0]?.value ?? '';
  }

  async clearSearchIndex(): Promise<void> {
    await this.db.transaction(async (client) => {
      await clearIndex(client);
      await client.query(`DELETE FROM search_meta WHERE key = 'version'`);
    });
  }

  async setSearchIndexVersion(version: string): Promise<void> {
    await this.db.rows(`INSERT INTO search_meta (key, value) VALUES ('version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [version]);
  }

  readEdges(query: EdgeQuery): Promise<StoredEdge[]> {
    const params: unknown[] = [];
    const sql = `${edgesSql(query, params, true)} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
    return this.db.rows<StoredEdge & Record<string, unknown>>(sql, [...params, query.limit, query.offset ?? 0]);
  }

  async countEdges(filter: EdgeFilter): Promise<number> {
    const params: unknown[] = [];
    const rows = await this.db.rows<{ n: string }>(`SELECT count(*) AS n FROM (${edgesSql(filter, params, false)}) edges`, params);
    return Number(rows[0]?.n ?? 0);
  }

  /** A walk's step: ends and relationships from the edges_in index or the key, the types tested after (adjacent-edges.ts). */
  async adjacentEdges(filter: EdgeFilter): Promise<StoredEdge[]> {
    const params: unknown[] = [];
    const sql = adjacentSql(filter, params);
    if (sql === undefined) return [];
    const rows = await this.db.rows<{ source: string; relationship: string; destination: string }>(sql, params);
    return typedEdges(filter, rows.map((r) => [r.source, r.relationship, r.destination] as const));
  }

  async softDeleted(urns: readonly string[]): Promise<string[]> {
    const rows = await this.db.rows<{ urn: string }>(softDeletedSql, [urns]);
    return rows.map((r) => r.urn);
  }

  async graphVersion(): Promise<string> {
    const rows = await this.db.rows<{ value: string }>(`SELECT value FROM search_meta WHERE key = 'graph'`);
    return rows[0]?.value ?? '';
  }

  async clearGraph(): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('DELETE FROM edges');
      await client.query(`DELETE FROM search_meta WHERE key = 'graph'`);
    });
  }

  async setGraphVersion(version: string): Promise<void> {
    await this.db.rows(`INSERT INTO search_meta (key, value) VALUES ('graph', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [version]);
  }

  readEvents(after: number, limit: number, filter?: EventFilter): Promise<LoggedEvent[]> {
    return this.changeLog.readEvents(after, limit, filter);
  }

  pruneEvents(before: number): Promise<number> {
    return this.changeLog.pruneEvents(before);
  }

  readPoints(urn: string, aspect: string, query: PointQuery): Promise<StoredPoint[]> {
    return this.points.read(urn, aspect, query);
  }

  latestPoints(pairs: ReadonlyArray<{ urn: string; aspect: string }>): Promise<StoredPoint[]> {
    return this.points.latest(pairs);
  }

  scrollPoints(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): Promise<StoredPoint[]> {
    return this.points.scroll(entityType, aspect, query);
  }

  deletePoints(removal: PointRemoval): Promise<number> {
    return this.points.deletePoints(removal);
  }

  prunePoints(aspect: string, before: number, limit: number): Promise<number> {
    return this.points.prune(aspect, before, limit);
  }

  insertToken(token: TokenRecord): Promise<void> {
    return this.tokens.insertToken(token);
  }

  listTokens(): Promise<TokenRecord[]> {
    return this.tokens.listTokens();
  }

  tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return this.tokens.tokenByHash(hash);
  }

  revokeToken(id: string, at: number): Promise<boolean> {
    return this.tokens.revokeToken(id, at);
  }

  touchToken(id: string, at: number): Promise<void> {
    return this.tokens.touchToken(id, at);
  }

  /** The whole batch in one transaction (shared with other batches: group-commit.ts), or nothing. */
  commit(batch: CommitBatch): Promise<void> {
    return this.commits.commit(batch);
  }

  async close(): Promise<void> {
    await this.statistics.stop();
    await this.db.end();
  }
}
