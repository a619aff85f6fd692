import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LatestCache } from './latest-cache.js';
import { Checkpointer } from './checkpointer.js';
import { SQLITE_MIGRATIONS } from './migrate.js';
import { SqliteSearch } from './search.js';
import type { SearchQuery, SearchResult } from '../search-types.js';
import { HISTORY_CHAIN, SqliteWriter, writtenSize } from './writer.js';
import {
  StaleWriteError,
  type ChangeType,
  type CommitBatch,
  type LoggedEvent,
  type StoreLocation,
  type Store,
  type StoredAspect,
  type SystemMetadata,
  type TokenRecord,
} from '../store.js';

interface AspectRow {
  urn: string;
  aspect: string;
  version: number;
  metadata: string;
  system_metadata: string;
}
type RawAspectRow = [urn: string, aspect: string, version: number, metadata: string, systemMetadata: string];

const TOKEN_COLUMNS = `id, name, role, actor, hash, created_at AS createdAt, created_by AS createdBy, expires_at AS expiresAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

interface PendingCommit {
  batch: CommitBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Latest rows read as storage version 0 (history rows keep their own version). */
const COLUMNS = 'urn, aspect, 0 AS version, metadata, system_metadata';
/** Queries naming up to this many aspects (and URNs) get statements with placeholders; more go through json_each. */
const LISTED_ASPECTS = 8;
const PRUNE_CHUNK = 5000;
const LISTED_URNS = 16;

/**
 * The embedded store: one SQLite file in WAL mode, driven synchronously by better-sqlite3 (WAL
 * checkpoints run on a thread of their own). Latest values live in `aspects`, earlier ones in
 * `aspect_history`; SqliteWriter holds the statements that change them.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly latestOf: Array<Database.Statement<unknown[], AspectRow>>;
  private readonly manyStatements = new Map<number, Database.Statement<unknown[], AspectRow>>();
  private readonly writer: SqliteWriter;
  private readonly searcher: SqliteSearch;
  private pending: PendingCommit[] = [];
  private readonly checkpointer?: Checkpointer;
  private readonly cache = new LatestCache();
  private dataVersion = -1;
  private checkedThisTurn = false;

  readonly location?: StoreLocation;

  /**
   * Opens (creating if needed) `<dataDir>/urnbase.db`; `:memory:` gives a private in-memory store.
   * A second connection of the same process (a worker thread's) passes `checkpoints: false`: the
   * first one's checkpointer keeps the log short for all.
   */
  constructor(dataDir: string, options: { checkpoints?: boolean; sync?: 'normal' | 'full' } = {}) {
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
    migrate(this.db);
    if (file) {
      this.db.pragma('wal_autocheckpoint = 0');
      if (options.checkpoints ?? true) this.checkpointer = new Checkpointer(file, () => this.restartLog());
    }
    this.writer = new SqliteWriter(this.db);
    this.searcher = new SqliteSearch(this.db);

    const db = this.db;
    const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    this.latestOf = Array.from({ length: LISTED_ASPECTS + 1 }, (_, n) =>
      db.prepare<unknown[], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn = ?${n > 0 ? ` AND aspect IN (${placeholders(n)})` : ''}`,
      ),
    );
    this.stmt = {
      latestJson: db.prepare<[string, string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn = ? AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      manyAll: db.prepare<[string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?))`,
      ),
      manySome: db.prepare<[string, string], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?))
           AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      version: db.prepare<[{ urn: string; aspect: string; down_to: number }], AspectRow>(
        `${HISTORY_CHAIN} SELECT h.urn, h.aspect, h.version, h.metadata, h.system_metadata
           FROM chain JOIN aspect_history h USING (id) WHERE chain.version = :down_to`,
      ),
      scanAspect: db.prepare<[string, string, number], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE aspect = ? AND urn > ? ORDER BY urn LIMIT ?`,
      ),
      listUrns: db.prepare<[string, string, number], string>(`SELECT urn FROM aspects WHERE aspect = ? AND urn > ? ORDER BY urn LIMIT ?`).pluck(),
      // One pass over a primary-key range, not a lookup per (urn, aspect): several times faster for
      // pages of consecutive URNs (`+entity_type` keeps the planner off aspects_by_type, which
      // would cost a lookup per row). Raw rows: [urn, aspect, version, metadata, system_metadata].
      range: db
        .prepare<[string, string, string], unknown[]>(`SELECT ${COLUMNS} FROM aspects WHERE urn > ? AND urn <= ? AND +entity_type = ? ORDER BY urn, aspect`)
        .raw(),
      events: db.prepare<[number, number], EventRow>(
        `SELECT sequence, urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata
           FROM change_log WHERE sequence > ? ORDER BY sequence LIMIT ?`,
      ),
      // Creation times follow sequence order: what goes is the log's oldest stretch.
      firstKept: db.prepare<[number], number>(`SELECT sequence FROM change_log WHERE created_on >= ? ORDER BY sequence LIMIT 1`).pluck(),
      // A chunk at a time, so a large prune never holds the write lock for long.
      pruneChunk: db.prepare<[number]>(`DELETE FROM change_log WHERE sequence < ? AND sequence < (SELECT min(sequence) FROM change_log) + ${PRUNE_CHUNK}`),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      searchVersion: db.prepare<[], string>(`SELECT value FROM search_meta WHERE key = 'version'`).pluck(),
      setSearchVersion: db.prepare<[string]>(`INSERT OR REPLACE INTO search_meta (key, value) VALUES ('version', ?)`),
      insertToken: db.prepare(
        `INSERT INTO tokens (id, name, role, actor, hash, created_at, created_by, expires_at, last_used_at, revoked_at)
         VALUES (@id, @name, @role, @actor, @hash, @createdAt, @createdBy, @expiresAt, @lastUsedAt, @revokedAt)`,
      ),
      listTokens: db.prepare<[], TokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`),
      tokenByHash: db.prepare<[string], TokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = ?`),
      revokeToken: db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      touchToken: db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?'),
    };
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    return this.getLatestMany([urn], aspects);
  }

  /** Named aspects come from the cache where it knows them; the rest (and "all aspects") from SQLite. */
  async getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    // Bulk reads (catalog runs, big batches) are scans: caching them would only churn the cache.
    if (urns.length > LISTED_URNS) return this.query(urns, aspects);
    if (!aspects) return this.remember(this.query(urns, undefined), urns, undefined);
    this.checkFresh();
    const found: StoredAspect[] = [];
    const missingUrns = new Set<string>();
    const missingAspects = new Set<string>();
    for (const urn of urns) {
      for (const aspect of aspects) {
        const cached = this.cache.get(urn, aspect);
        if (cached === undefined) {
          missingUrns.add(urn);
          missingAspects.add(aspect);
        } else if (cached !== null) {
          found.push(cached);
        }
      }
    }
    if (missingUrns.size === 0) return found;
    const names = [...missingAspects];
    const rows = this.remember(this.query([...missingUrns], names), [...missingUrns], names);
    // Rows for aspects that were already cached come back too; keep each (urn, aspect) once.
    const seen = new Set(found.map((f) => `${f.urn}\u0000${f.aspect}`));
    return [...found, ...rows.filter((r) => !seen.has(`${r.urn}\u0000${r.aspect}`))];
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    if (version === 0) return (await this.getLatestMany([urn], [aspect]))[0];
    const row = this.stmt.version.get({ urn, aspect, down_to: version });
    return row && toStored(row);
  }

  private query(urns: readonly string[], aspects: readonly string[] | undefined): StoredAspect[] {
    const names = aspects?.length ?? 0;
    if (urns.length === 1 && names <= LISTED_ASPECTS) return this.latestOf[names].all(urns[0], ...(aspects ?? [])).map(toStored);
    if (urns.length === 1) return this.stmt.latestJson.all(urns[0], JSON.stringify(aspects)).map(toStored);
    if (urns.length <= LISTED_URNS && names <= LISTED_ASPECTS) {
      return this.latestOfMany(urns.length, names).all(...urns, ...(aspects ?? [])).map(toStored);
    }
    const list = JSON.stringify(urns);
    const rows = aspects ? this.stmt.manySome.all(list, JSON.stringify(aspects)) : this.stmt.manyAll.all(list);
    return rows.map(toStored);
  }

  /** Statements with placeholders for small lists: SQLite plans them far better than json_each. */
  private latestOfMany(urns: number, aspects: number): Database.Statement<unknown[], AspectRow> {
    const key = urns * (LISTED_ASPECTS + 1) + aspects;
    let statement = this.manyStatements.get(key);
    if (!statement) {
      const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');
      statement = this.db.prepare<unknown[], AspectRow>(
        `SELECT ${COLUMNS} FROM aspects WHERE urn IN (${list(urns)})${aspects > 0 ? ` AND aspect IN (${list(aspects)})` : ''}`,
      );
      this.manyStatements.set(key, statement);
    }
    return statement;
  }

  /** Caches what a query found, and, for the aspects it named, what it did not find. */
  private remember(rows: StoredAspect[], urns: readonly string[], aspects: readonly string[] | undefined): StoredAspect[] {
    if (aspects) for (const urn of urns) for (const aspect of aspects) this.cache.set(urn, aspect, null, 0);
    for (const row of rows) this.cache.set(row.urn, row.aspect, row, (row as RowAspect).size);
    return rows;
  }

  /**
   * Another connection (the CLI, another process) committed: what we cached may be stale. Asking
   * SQLite costs a read lock, so it is asked once per turn of the event loop, not per read.
   */
  private checkFresh(): void {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(() => (this.checkedThisTurn = false));
    const version = this.stmt.dataVersion.get() as number;
    if (version !== this.dataVersion) {
      this.cache.clear();
      this.dataVersion = version;
    }
  }

  async scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    return this.stmt.scanAspect.all(aspect, after ?? '', limit).map(toStored);
  }

  async listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]> {
    return this.stmt.listUrns.all(keyAspect, after ?? '', limit);
  }

  async getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    const wanted = aspects && new Set(aspects);
    const rows: StoredAspect[] = [];
    // URNs of one type share the prefix `urn:li:<type>:`, so none of another type sorts between two of them.
    for (const row of this.stmt.range.all(after ?? `urn:li:${entityType}:`, last, entityType) as RawAspectRow[]) {
      // Unwanted aspects are skipped before their JSON is parsed.
      if (!wanted || wanted.has(row[1])) rows.push(new RowAspect(row[0], row[1], row[2], row[3], row[4]));
    }
    return rows;
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    return this.searcher.search(query);
  }

  async searchIndexVersion(): Promise<number> {
    return Number(this.stmt.searchVersion.get() ?? 0);
  }

  async clearSearchIndex(): Promise<void> {
    this.db.exec(`DELETE FROM search_terms; DELETE FROM search_numbers; DELETE FROM search_term_counts; DELETE FROM search_number_counts;
      DELETE FROM search_docs; INSERT INTO search_text (search_text) VALUES ('delete-all'); DELETE FROM search_meta WHERE key = 'version';`);
  }

  async setSearchIndexVersion(version: number): Promise<void> {
    this.stmt.setSearchVersion.run(String(version));
  }

  async readEvents(after: number, limit: number): Promise<LoggedEvent[]> {
    return this.stmt.events.all(after, limit).map(toEvent);
  }

  async pruneEvents(before: number): Promise<number> {
    const first = this.stmt.firstKept.get(before) ?? Number.MAX_SAFE_INTEGER;
    let pruned = 0;
    for (;;) {
      const { changes } = this.stmt.pruneChunk.run(first);
      pruned += changes;
      if (changes === 0) return pruned;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async insertToken(token: TokenRecord): Promise<void> {
    this.stmt.insertToken.run(token);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return this.stmt.listTokens.all();
  }

  async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return this.stmt.tokenByHash.get(hash);
  }

  async revokeToken(id: string, at: number): Promise<boolean> {
    return this.stmt.revokeToken.run(at, id).changes > 0;
  }

  async touchToken(id: string, at: number): Promise<void> {
    this.stmt.touchToken.run(at, id);
  }

  /**
   * Group commit: batches that arrive while the event loop is busy are written in one SQLite
   * transaction, so a commit's fixed cost is shared (see SqliteWriter.commit); every promise
   * settles after that commit.
   */
  commit(batch: CommitBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /**
   * Starts the write-ahead log over (it was all copied back already, so this is quick). Runs
   * between commits of this, the writing connection; a reader still in an old snapshot (a
   * worker thread's) makes it wait a moment or give up until the next time.
   */
  private restartLog(): void {
    try {
      this.db.pragma('wal_checkpoint(RESTART)');
    } catch {
      // busy: the checkpointer will ask again
    }
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.checkpointer) this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
    const failures = this.writer.commit(group.map((p) => p.batch));
    group.forEach((pending, i) => {
      const failure = failures[i];
      // A lost compare-and-set means someone else wrote: re-read from SQLite from now on.
      if (failure instanceof StaleWriteError) this.cache.clear();
      if (failure) return pending.reject(failure);
      this.committed(pending.batch);
      pending.resolve();
    });
  }

  /** After a commit: what the cache knows of the written aspects becomes what was written. */
  private committed(batch: CommitBatch): void {
    for (const write of batch.writes) {
      // Only entries already cached change; bulk writes do not fill (and churn) the cache.
      if (this.cache.get(write.urn, write.aspect) === undefined) continue;
      if (write.kind === 'remove') {
        this.cache.set(write.urn, write.aspect, null, 0);
      } else if (write.kind === 'put') {
        const stored = { urn: write.urn, aspect: write.aspect, version: 0, value: write.value, systemMetadata: write.systemMetadata };
        this.cache.set(write.urn, write.aspect, stored, writtenSize(write.value) + writtenSize(write.systemMetadata));
      } else {
        const cached = this.cache.get(write.urn, write.aspect);
        if (cached) this.cache.set(write.urn, write.aspect, { ...cached, value: cached.value, systemMetadata: write.systemMetadata }, this.cache.sizeOf(write.urn, write.aspect));
      }
    }
  }
}

/** A stored row; its system metadata is parsed only when someone reads it: most reads answer the value alone. */
class RowAspect implements StoredAspect {
  readonly value: unknown;
  /** The length of its JSON, which is what the cache counts. */
  readonly size: number;
  private parsedSystemMetadata?: SystemMetadata;

  constructor(
    readonly urn: string,
    readonly aspect: string,
    readonly version: number,
    metadata: string,
    private readonly systemMetadataText: string,
  ) {
    this.value = JSON.parse(metadata);
    this.size = metadata.length + systemMetadataText.length;
  }

  get systemMetadata(): SystemMetadata {
    return (this.parsedSystemMetadata ??= JSON.parse(this.systemMetadataText) as SystemMetadata);
  }
}

interface EventRow {
  sequence: number;
  urn: string;
  entity_type: string;
  aspect: string;
  change_type: ChangeType;
  created_on: number;
  created_by: string;
  value: string | null;
  previous_value: string | null;
  system_metadata: string | null;
}

function toEvent(row: EventRow): LoggedEvent {
  const json = (text: string | null) => (text === null ? null : JSON.parse(text));
  return {
    sequence: row.sequence,
    urn: row.urn,
    entityType: row.entity_type,
    aspect: row.aspect,
    changeType: row.change_type,
    created: { time: row.created_on, actor: row.created_by },
    value: json(row.value),
    previousValue: json(row.previous_value),
    systemMetadata: json(row.system_metadata),
  };
}

function toStored(row: AspectRow): StoredAspect {
  return new RowAspect(row.urn, row.aspect, row.version, row.metadata, row.system_metadata);
}

function migrate(db: Database.Database): void {
  const done = db.pragma('user_version', { simple: true }) as number;
  for (let i = done; i < SQLITE_MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(SQLITE_MIGRATIONS[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
