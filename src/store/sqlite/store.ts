import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pacer } from '../../pace.js';
import type { EdgeFilter, EdgeQuery, StoredEdge } from '../graph-types.js';
import type { SearchQuery, SearchResult } from '../search-types.js';
import type { AspectVersion, CommitBatch, EventFilter, LoggedEvent, PointCursor, PointQuery, PointRemoval, StoreLocation, Store, StoredAspect, StoredPoint, TokenRecord } from '../store.js';
import { AspectReads } from './aspect-reads.js';
import { CachedReads } from './cached-reads.js';
import { SqliteChangeLog } from './change-log.js';
import { Checkpointer } from './checkpointer.js';
import { SqliteGraph } from './graph.js';
import { GroupCommit } from './group-commit.js';
import { migrate } from './migrate.js';
import { SqliteSearch } from './search.js';
import { SteppedSearch } from './stepped-search.js';
import { SqlitePoints } from './timeseries.js';
import { SqliteTokens } from './tokens.js';
import { SqliteWriter } from './writer.js';

/** Entities read by one statement: a read of more is cut into slices that share the event loop. */
const READ_SLICE = 500;

/**
 * The embedded store: one SQLite file in WAL mode, driven synchronously by better-sqlite3 (WAL
 * checkpoints run on a thread of their own). Latest values live in `aspects`, earlier ones in
 * `aspect_history`. This class opens the file and composes the parts: reads (through the
 * latest-value cache), group commit over SqliteWriter, search, change log, tokens.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly reads: AspectReads;
  private readonly latest: CachedReads;
  private readonly commits: GroupCommit;
  private readonly searcher: SqliteSearch;
  /** Searches on a connection of their own, stopped when their client has gone (a file's store only). */
  private readonly stepped?: SteppedSearch;
  private readonly changeLog: SqliteChangeLog;
  private readonly tokens: SqliteTokens;
  private readonly points: SqlitePoints;
  private readonly graph: SqliteGraph;
  private readonly searchMeta;
  private readonly checkpointer?: Checkpointer;
  private restartAfterCommit = false;

  readonly location?: StoreLocation;
  /** How many schema migrations opening the store ran. */
  readonly migrationsRun: number;

  /**
   * Opens (creating if needed) `<dataDir>/urnbase.db`; `:memory:` gives a private in-memory store.
   * A second connection of the same process (a worker thread's) passes `checkpoints: false`: the
   * first one's checkpointer keeps the log short for all.
   */
  constructor(dataDir: string, options: { checkpoints?: boolean; sync?: 'normal' | 'full'; logLimitBytes?: number } = {}) {
    const file = dataDir === ':memory:' ? undefined : join(dataDir, 'urnbase.db');
    if (file) this.location = { kind: 'sqlite', dataDir, sync: options.sync ?? 'normal' };
    if (file) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // A new catalog file (token hashes included) is owner-only even in a data dir the operator made
    // with looser rights; SQLite gives its -wal and -shm files the same mode. An existing file is left as it is.
    if (file && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    this.db = new Database(file ?? ':memory:');
    // NORMAL in WAL mode: a commit survives a process crash; only a power loss can drop the last
    // ones. FULL syncs the log at every commit, so a power loss drops nothing acknowledged either.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('busy_timeout = 5000');
    // Up to 256 MiB of pages kept in the process (SQLite's default is 2 MiB): a lineage walk at 1M
    // datasets reads ~100 MiB of edge index pages, which otherwise come back through the OS a read
    // call each (a 3-hop impact of 10,000 entities, 185 ms against 132 ms). Used as filled only.
    this.db.pragma('cache_size = -262144');
    this.migrationsRun = migrate(this.db);
    if (file) {
      this.db.pragma('wal_autocheckpoint = 0');
      // A log that grew under a burst of writes shrinks back when it starts over (SQLite otherwise
      // keeps the file at its largest, and the data dir with it): to the size at which it restarts.
      const logLimit = options.logLimitBytes ?? 64 * 2 ** 20;
      this.db.pragma(`journal_size_limit = ${logLimit}`);
      if (options.checkpoints ?? true) this.checkpointer = new Checkpointer(file, () => this.restartLog(), logLimit);
    }
    this.reads = new AspectReads(this.db);
    this.latest = new CachedReads(this.db, this.reads);
    this.points = new SqlitePoints(this.db);
    this.graph = new SqliteGraph(this.db);
    this.commits = new GroupCommit(new SqliteWriter(this.db, this.points, this.graph), this.latest);
    this.searcher = new SqliteSearch(this.db);
    // An in-memory database has no second connection: its searches run at once, to their end.
    if (file) this.stepped = new SteppedSearch(file);
    this.changeLog = new SqliteChangeLog(this.db);
    this.tokens = new SqliteTokens(this.db);
    this.searchMeta = {
      version: this.db.prepare<[], string>(`SELECT value FROM search_meta WHERE key = 'version'`).pluck(),
      setVersion: this.db.prepare<[string]>(`INSERT OR REPLACE INTO search_meta (key, value) VALUES ('version', ?)`),
    };
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (this.commits.busy) await this.quiet();
    return this.latest.getLatestMany([urn], aspects);
  }

  async getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (this.commits.busy) await this.quiet();
    if (urns.length <= READ_SLICE) return this.latest.getLatestMany(urns, aspects);
    // Thousands of entities (a big batch's state, a batchGet) are read in slices that share the event loop.
    const rows: StoredAspect[] = [];
    const pacer = new Pacer();
    for (let i = 0; i < urns.length; i += READ_SLICE) {
      for (const row of this.latest.getLatestMany(urns.slice(i, i + READ_SLICE), aspects)) rows.push(row);
      await pacer.pace();
      if (this.commits.busy) await this.quiet();
    }
    return rows;
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    if (this.commits.busy) await this.quiet();
    if (version === 0) return this.latest.getLatestMany([urn], [aspect])[0];
    return this.reads.version(urn, aspect, version);
  }

  async getHistory(urn: string, since: number, limit: number): Promise<AspectVersion[]> {
    if (this.commits.busy) await this.quiet();
    return this.reads.history(urn, since, limit);
  }

  async scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    if (this.commits.busy) await this.quiet();
    return this.reads.scanAspect(aspect, after, limit);
  }

  async listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]> {
    if (this.commits.busy) await this.quiet();
    return this.reads.listUrns(keyAspect, after, limit);
  }

  async getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (this.commits.busy) await this.quiet();
    return this.reads.range(entityType, after, last, aspects);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    if (this.commits.busy) await this.quiet();
    return this.stepped ? this.stepped.search(query) : this.searcher.search(query);
  }

  /** Searches stopped because their client had gone. */
  get searchesCancelled(): number {
    return this.stepped?.cancelled ?? 0;
  }

  /** Tests only: runs before each step of a search (see SteppedSearch.beforeStep). */
  set beforeSearchStep(hook: (() => void) | undefined) {
    if (this.stepped) this.stepped.beforeStep = hook;
  }

  async searchIndexVersion(): Promise<string> {
    if (this.commits.busy) await this.quiet();
    return String(this.searchMeta.version.get() ?? '');
  }

  async clearSearchIndex(): Promise<void> {
    if (this.commits.busy) await this.quiet();
    this.db.exec(`DELETE FROM search_terms; DELETE FROM search_numbers; DELETE FROM search_term_counts; DELETE FROM search_number_counts;
      DELETE FROM search_docs; INSERT INTO search_text (search_text) VALUES ('delete-all'); DELETE FROM search_types; DELETE FROM search_meta WHERE key = 'version';`);
  }

  async setSearchIndexVersion(version: string): Promise<void> {
    if (this.commits.busy) await this.quiet();
    this.searchMeta.setVersion.run(version);
  }

  async readEdges(query: EdgeQuery): Promise<StoredEdge[]> {
    if (this.commits.busy) await this.quiet();
    return this.graph.read(query);
  }

  async countEdges(filter: EdgeFilter): Promise<number> {
    if (this.commits.busy) await this.quiet();
    return this.graph.count(filter);
  }

  async adjacentEdges(filter: EdgeFilter): Promise<StoredEdge[]> {
    if (this.commits.busy) await this.quiet();
    return this.graph.adjacent(filter);
  }

  async softDeleted(urns: readonly string[]): Promise<string[]> {
    if (this.commits.busy) await this.quiet();
    return this.graph.softDeleted(urns);
  }

  async graphVersion(): Promise<string> {
    if (this.commits.busy) await this.quiet();
    return this.graph.version();
  }

  async clearGraph(): Promise<void> {
    if (this.commits.busy) await this.quiet();
    this.graph.clear();
  }

  async setGraphVersion(version: string): Promise<void> {
    if (this.commits.busy) await this.quiet();
    this.graph.setVersion(version);
  }

  async readEvents(after: number, limit: number, filter?: EventFilter): Promise<LoggedEvent[]> {
    if (this.commits.busy) await this.quiet();
    return this.changeLog.readEvents(after, limit, filter);
  }

  async pruneEvents(before: number): Promise<number> {
    if (this.commits.busy) await this.quiet();
    return this.changeLog.pruneEvents(before);
  }

  async readPoints(urn: string, aspect: string, query: PointQuery): Promise<StoredPoint[]> {
    if (this.commits.busy) await this.quiet();
    return this.points.read(urn, aspect, query);
  }

  async latestPoints(pairs: ReadonlyArray<{ urn: string; aspect: string }>): Promise<StoredPoint[]> {
    if (this.commits.busy) await this.quiet();
    return this.points.latest(pairs);
  }

  async scrollPoints(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): Promise<StoredPoint[]> {
    if (this.commits.busy) await this.quiet();
    return this.points.scroll(entityType, aspect, query);
  }

  async deletePoints(removal: PointRemoval): Promise<number> {
    if (this.commits.busy) await this.quiet();
    return this.db.transaction(() => this.points.removePoints(removal)).immediate();
  }

  async prunePoints(aspect: string, before: number, limit: number): Promise<number> {
    if (this.commits.busy) await this.quiet();
    return this.points.prune(aspect, before, limit);
  }

  async insertToken(token: TokenRecord): Promise<void> {
    if (this.commits.busy) await this.quiet();
    return this.tokens.insertToken(token);
  }

  async listTokens(): Promise<TokenRecord[]> {
    if (this.commits.busy) await this.quiet();
    return this.tokens.listTokens();
  }

  async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    if (this.commits.busy) await this.quiet();
    return this.tokens.tokenByHash(hash);
  }

  async revokeToken(id: string, at: number): Promise<boolean> {
    if (this.commits.busy) await this.quiet();
    return this.tokens.revokeToken(id, at);
  }

  async touchToken(id: string, at: number): Promise<void> {
    if (this.commits.busy) await this.quiet();
    return this.tokens.touchToken(id, at);
  }

  /**
   * Waits while a large group is being committed in slices: the connection is inside its
   * transaction meanwhile, and what is read or written on it then would be read from, or become
   * part of, a transaction that may yet roll back. A property check when nothing is under way.
   */
  private async quiet(): Promise<void> {
    for (let busy = this.commits.busy; busy; busy = this.commits.busy) await busy;
  }

  /** Settles after the commit of the group the batch joins (see GroupCommit). */
  commit(batch: CommitBatch): Promise<void> {
    return this.commits.commit(batch);
  }

  /**
   * Starts the write-ahead log over (it was all copied back already, so this is quick). Runs
   * between commits of this, the writing connection; a reader still in an old snapshot (a
   * worker thread's) makes it wait a moment or give up until the next time.
   */
  private restartLog(): void {
    // Inside a sliced commit's transaction: restart right after it, before the next group begins.
    // (Waiting for a tick between commits never worked under a steady load of large groups: the
    // log grew by 110 MB/s, 12 GB in two minutes of bulk loading.)
    const busy = this.commits.busy;
    if (busy) {
      if (!this.restartAfterCommit) {
        this.restartAfterCommit = true;
        void busy.then(() => {
          this.restartAfterCommit = false;
          this.restartLog();
        });
      }
      return;
    }
    // A search paused between its steps holds a snapshot on this same thread: RESTART would wait
    // for it while it cannot go on. The checkpointer asks again.
    if (this.stepped?.reading) return;
    try {
      this.db.pragma('wal_checkpoint(RESTART)');
    } catch {
      // busy: the checkpointer will ask again
    }
  }

  async close(): Promise<void> {
    if (this.commits.busy) await this.quiet();
    await this.checkpointer?.stop();
    await this.stepped?.close();
    if (this.checkpointer) this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}
