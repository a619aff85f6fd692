import type { EdgeFilter, EdgeQuery, EdgeWrite, StoredEdge } from './graph-types.js';
import type { IndexWrite, SearchQuery, SearchResult } from './search-types.js';

/**
 * The persistence interface. Small on purpose: the write path hands it one precomputed batch per
 * request, the read path asks for latest values, history versions and pages of URNs.
 */

export interface AuditStamp {
  time: number;
  actor: string;
}

export interface SystemMetadata {
  /** The aspect's version as a string: "1" after the first write, +1 per change. */
  version: string;
  lastObserved: number;
  runId?: string;
  properties?: Record<string, string>;
  aspectCreated: AuditStamp;
  aspectModified: AuditStamp;
}

export interface StoredAspect {
  urn: string;
  aspect: string;
  /** Storage version: 0 is the latest, 1..N earlier values in write order. */
  version: number;
  value: unknown;
  systemMetadata: SystemMetadata;
}

/** One stored value of an aspect, as a timeline reads it: which write it was, and when and by whom. */
export interface AspectVersion {
  aspect: string;
  /** systemMetadata.version of the value: 1 for the first write, +1 per change. */
  version: number;
  /** The latest value (storage version 0); the others are history. */
  latest: boolean;
  value: unknown;
  /** When and by whom the value was written (the row's created_on, created_by: aspectModified). */
  created: AuditStamp;
}

/** Write a new latest value; the previous latest (if any) moves into history. */
export interface AspectPut {
  kind: 'put';
  urn: string;
  entityType: string;
  aspect: string;
  value: unknown;
  systemMetadata: SystemMetadata;
  /** systemMetadata.version of the latest value this write was computed from; 0 when absent. */
  expectedVersion: number;
}

/** Refresh only the system metadata of the latest value (a write of an equal value). */
export interface AspectTouch {
  kind: 'touch';
  urn: string;
  aspect: string;
  systemMetadata: SystemMetadata;
  expectedVersion: number;
}

/** Remove an aspect with all its history. */
export interface AspectRemove {
  kind: 'remove';
  urn: string;
  aspect: string;
  expectedVersion: number;
}

export type AspectWrite = AspectPut | AspectTouch | AspectRemove;

/**
 * What a timeseries point carries besides its value: DataHub keeps the MCP's system metadata with
 * the document (no version: points are not versioned).
 */
export interface PointMetadata {
  /** Never set: what tells a point's metadata from a version's. */
  version?: undefined;
  lastObserved: number;
  runId?: string;
  properties?: Record<string, string>;
}

/**
 * One point of a timeseries aspect. Appended, apart from versioned aspects; keyed as DataHub keys
 * its document: urn, aspect, timestampMillis and `key` (eventGranularity, partitionSpec and
 * messageId as text, ingest/point-key.ts): a point with the same key replaces the stored one.
 */
export interface TimeseriesPoint {
  urn: string;
  entityType: string;
  aspect: string;
  timestampMillis: number;
  key: string;
  value: unknown;
  systemMetadata: PointMetadata;
  written: AuditStamp;
}

/** Removes an entity's points: of the named aspects (all when omitted), between start and end inclusive (unbounded when omitted). */
export interface PointRemoval {
  urn: string;
  aspects?: readonly string[];
  start?: number;
  end?: number;
}

/** Which points a read wants: newest first, those at or after `start` and at or before `end`, strictly before `before`. */
export interface PointQuery {
  start?: number;
  end?: number;
  /** Keyset position: the (timestampMillis, key) of the last point already read. */
  before?: { timestampMillis: number; key: string };
  limit: number;
}

/** Where a scroll over all points of an aspect goes on: the last point read. */
export interface PointCursor {
  timestampMillis: number;
  id: number;
}

/** A stored point, as reads return it. */
export interface StoredPoint {
  /** The row's id: a scroll's tie-breaker. */
  id: number;
  urn: string;
  aspect: string;
  timestampMillis: number;
  key: string;
  value: unknown;
  systemMetadata: PointMetadata;
  /** When and by whom the point was (last) written. */
  written: AuditStamp;
  /** Characters of its value's JSON, as stored. */
  size: number;
}

export type ChangeType = 'UPSERT' | 'CREATE' | 'CREATE_ENTITY' | 'PATCH' | 'DELETE';

/** One committed aspect change (DataHub's MetadataChangeLog, without Kafka). */
export interface ChangeEvent {
  urn: string;
  entityType: string;
  aspect: string;
  changeType: ChangeType;
  created: AuditStamp;
  value: unknown;
  previousValue: unknown;
  /** A timeseries point's event carries the point's metadata (PointMetadata: no version). */
  systemMetadata: SystemMetadata | PointMetadata | null;
}

/** A change-log event as kept: numbered in commit order (a reader after N misses nothing later). */
export interface LoggedEvent extends ChangeEvent {
  sequence: number;
}

/** Which change-log events a read gives: each field given must equal the event's (all in the query, not after it). */
export interface EventFilter {
  entityType?: string;
  /** None of these entity types (the console leaves the catalog's own, e.g. dataType, out of its feed). */
  excludeEntityTypes?: readonly string[];
  aspect?: string;
  /** The actor's URN (`created.actor`). */
  actor?: string;
  /** No event with a higher sequence. */
  upTo?: number;
  /** The newest first (the last `limit` of the range), instead of the oldest. */
  newestFirst?: boolean;
}

export interface CommitBatch {
  writes: AspectWrite[];
  events: ChangeEvent[];
  /** The search-index changes of the writes. */
  index?: IndexWrite[];
  /** Timeseries points removed (entity deletes), before `points` are written. */
  pointRemovals?: PointRemoval[];
  /** Timeseries points written (a point with a stored point's key replaces it). */
  points?: TimeseriesPoint[];
  /** The graph edges the writes add and remove (GraphEdges). */
  edges?: EdgeWrite[];
}

/**
 * Thrown by commit when a write's expectedVersion no longer matches the stored latest version: a
 * concurrent writer got there first. The write path re-reads and retries.
 */
export class StaleWriteError extends Error {
  override name = 'StaleWriteError';
}

/** An access token as stored: only the hash of its secret. */
export interface TokenRecord {
  id: string;
  name: string;
  role: 'admin' | 'editor' | 'viewer';
  actor: string;
  /** SHA-256 (hex) of the secret. */
  hash: string;
  createdAt: number;
  createdBy: string;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** Access tokens, kept beside the catalog in the same database. */
export interface TokenStore {
  insertToken(token: TokenRecord): Promise<void>;
  listTokens(): Promise<TokenRecord[]>;
  tokenByHash(hash: string): Promise<TokenRecord | undefined>;
  /** Marks the token revoked; false when there is no such (live) token. */
  revokeToken(id: string, at: number): Promise<boolean>;
  touchToken(id: string, at: number): Promise<void>;
}

/** How another thread opens the same store. */
export type StoreLocation = { kind: 'sqlite'; dataDir: string; sync: 'normal' | 'full' } | { kind: 'postgres'; url: string };

export interface Store extends TokenStore {
  /** Where the store is, for worker threads; undefined when no other thread can open it (in memory). */
  readonly location?: StoreLocation;
  /** Latest values of an entity's aspects (all of them when `aspects` is omitted). */
  getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]>;
  /** Latest values of several entities' aspects. */
  getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]>;
  /** One aspect at a storage version (0 = latest). */
  getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined>;
  /**
   * The versions of an entity's aspects a timeline from `since` (epoch millis) needs, by aspect
   * and then version (oldest first): per aspect, its latest value and each earlier one down to the
   * newest written before `since` (what the first change in the window is computed from). One
   * statement; at most `limit` rows (a caller asks one more than it accepts, to know there are more).
   */
  getHistory(urn: string, since: number, limit: number): Promise<AspectVersion[]>;
  /** Latest values of one aspect across all entities, in URN order, strictly after `after`. */
  scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]>;
  /**
   * URNs of the entities of one type in URN order, strictly after `after`. They are named by the
   * type's key aspect: every entity has its key, and only the entities of its type have it.
   */
  listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]>;
  /**
   * Latest values of the named aspects (all when omitted) of the entities of one type whose URNs
   * lie in (after, last], in URN order: a page of a catalog-wide pass, read in one range scan.
   */
  getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]>;
  /** Answers a resolved search query from the index. */
  search(query: SearchQuery): Promise<SearchResult>;
  /** The version of what is indexed (SearchFields.version) the index was built with ('': never built). */
  searchIndexVersion(): Promise<string>;
  /** Empties the search index, to rebuild it (then setSearchIndexVersion). */
  clearSearchIndex(): Promise<void>;
  setSearchIndexVersion(version: string): Promise<void>;
  /** Edges of one entity or one relationship type, each once (EdgeQuery). */
  readEdges(query: EdgeQuery): Promise<StoredEdge[]>;
  /** How many edges the filter holds (readEdges without a limit, offset or cursor). */
  countEdges(filter: EdgeFilter): Promise<number>;
  /**
   * Every edge of the filter, each once, in no order: a walk's step from its frontier, which
   * `sources` or `destinations` names (and so bounds).
   */
  adjacentEdges(filter: EdgeFilter): Promise<StoredEdge[]>;
  /**
   * Which of the entities are soft-deleted (their status says removed), in no order: a walk asks
   * once for each entity it reaches rather than for each edge it reads (several lead to most).
   */
  softDeleted(urns: readonly string[]): Promise<string[]>;
  /** The version of how edges are drawn (GraphEdges.version) the graph was built with ('': never built). */
  graphVersion(): Promise<string>;
  /** Removes every edge, to draw the graph again (then setGraphVersion). */
  clearGraph(): Promise<void>;
  setGraphVersion(version: string): Promise<void>;
  /** Change-log events with a sequence above `after`, oldest first (unless filter.newestFirst), at most `limit`. */
  readEvents(after: number, limit: number, filter?: EventFilter): Promise<LoggedEvent[]>;
  /** Deletes the change-log events created before `time` (epoch millis); returns how many. */
  pruneEvents(before: number): Promise<number>;
  /** An entity's points of one aspect, newest first (by timestampMillis, then key, descending). */
  readPoints(urn: string, aspect: string, query: PointQuery): Promise<StoredPoint[]>;
  /** The latest point of each (urn, aspect) asked for that has one. */
  latestPoints(pairs: ReadonlyArray<{ urn: string; aspect: string }>): Promise<StoredPoint[]>;
  /** Points of one aspect of one entity type across entities, newest first (timestampMillis, then id, descending), after `after`. */
  scrollPoints(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): Promise<StoredPoint[]>;
  /** Deletes an entity's points (PointRemoval); returns how many went. */
  deletePoints(removal: PointRemoval): Promise<number>;
  /** Deletes at most `limit` points of `aspect` older than `before` (timestampMillis); returns how many went. */
  prunePoints(aspect: string, before: number, limit: number): Promise<number>;
  /** Applies the whole batch in one transaction, or nothing (StaleWriteError on a lost race). */
  commit(batch: CommitBatch): Promise<void>;
  close(): Promise<void>;
}
