import pg from 'pg';
import { storeError } from './errors.js';
import { migratePostgres } from './migrate.js';
import { pgText } from './text.js';
import { clearIndex, PostgresSearch, writeIndex } from './search.js';
import type { SearchQuery, SearchResult } from '../search-types.js';
import {
  StaleWriteError,
  type AspectWrite,
  type ChangeEvent,
  type ChangeType,
  type CommitBatch,
  type LoggedEvent,
  type Store,
  type StoredAspect,
  type StoreLocation,
  type SystemMetadata,
  type TokenRecord,
} from '../store.js';

export interface PostgresOptions {
  /** Query and connection-acquire timeout (ms). */
  timeoutMs?: number;
  /** Connections in the pool. */
  poolSize?: number;
}

interface AspectRow {
  urn: string;
  aspect: string;
  version: string | number;
  metadata: string;
  system_metadata: string;
}

const COLUMNS = 'urn, aspect, 0 AS version, metadata, system_metadata';
const TOKEN_COLUMNS = `id, name, role, actor, hash, created_at, created_by, expires_at, last_used_at, revoked_at`;
/** Held (per transaction) while appending events, so sequences become visible in commit order. */
const EVENT_LOCK = 7_202_612;

/**
 * The store for several replicas: PostgreSQL through a pg.Pool. The same tables as SQLite's
 * (latest values in `aspects`, earlier ones in `aspect_history`), JSON kept as TEXT. No cache of
 * latest values: other replicas write the same database.
 */
export class PostgresStore implements Store {
  readonly location: StoreLocation;
  private readonly pool: pg.Pool;
  private readonly searcher: PostgresSearch;

  private constructor(readonly url: string, options: PostgresOptions) {
    this.location = { kind: 'postgres', url };
    const timeout = options.timeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
    });
    // An idle connection that breaks (the server restarted) is dropped by the pool; without a
    // listener its error would crash the process.
    this.pool.on('error', () => {});
    this.searcher = new PostgresSearch(this.pool);
  }

  /** Opens the pool and runs the schema migrations not yet applied. */
  static async open(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, options);
    try {
      await migratePostgres(store.pool);
    } catch (error) {
      await store.pool.end();
      throw storeError(error);
    }
    return store;
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    return this.getLatestMany([urn], aspects);
  }

  async getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (urns.length === 0) return [];
    const rows = aspects
      ? await this.query<AspectRow>(`SELECT ${COLUMNS} FROM aspects WHERE urn = ANY($1::text[]) AND aspect = ANY($2::text[])`, [urns, aspects])
      : await this.query<AspectRow>(`SELECT ${COLUMNS} FROM aspects WHERE urn = ANY($1::text[])`, [urns]);
    return rows.map(toStored);
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    if (version === 0) return (await this.getLatestMany([urn], [aspect]))[0];
    const rows = await this.query<AspectRow>(
      `SELECT urn, aspect, version, metadata, system_metadata FROM aspect_history WHERE urn = $1 AND aspect = $2 AND version = $3`,
      [urn, aspect, version],
    );
    return rows[0] && toStored(rows[0]);
  }

  async scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    const rows = await this.query<AspectRow>(`SELECT ${COLUMNS} FROM aspects WHERE aspect = $1 AND urn > $2 ORDER BY urn LIMIT $3`, [aspect, after ?? '', limit]);
    return rows.map(toStored);
  }

  async listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]> {
    const rows = await this.query<{ urn: string }>(`SELECT urn FROM aspects WHERE aspect = $1 AND urn > $2 ORDER BY urn LIMIT $3`, [keyAspect, after ?? '', limit]);
    return rows.map((r) => r.urn);
  }

  async getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    // URNs of one type share the prefix `urn:li:<type>:`, so none of another type sorts between two of them.
    const from = after ?? `urn:li:${entityType}:`;
    const rows = aspects
      ? await this.query<AspectRow>(
          `SELECT ${COLUMNS} FROM aspects WHERE urn > $1 AND urn <= $2 AND entity_type = $3 AND aspect = ANY($4::text[]) ORDER BY urn, aspect`,
          [from, last, entityType, aspects],
        )
      : await this.query<AspectRow>(`SELECT ${COLUMNS} FROM aspects WHERE urn > $1 AND urn <= $2 AND entity_type = $3 ORDER BY urn, aspect`, [from, last, entityType]);
    return rows.map(toStored);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    try {
      return await this.searcher.search(query);
    } catch (error) {
      throw storeError(error);
    }
  }

  async searchIndexVersion(): Promise<number> {
    const rows = await this.query<{ value: string }>(`SELECT value FROM search_meta WHERE key = 'version'`);
    return Number(rows[0]?.value ?? 0);
  }

  async clearSearchIndex(): Promise<void> {
    await this.transaction(async (client) => {
      await clearIndex(client);
      await client.query(`DELETE FROM search_meta WHERE key = 'version'`);
    });
  }

  async setSearchIndexVersion(version: number): Promise<void> {
    await this.query(`INSERT INTO search_meta (key, value) VALUES ('version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [String(version)]);
  }

  async readEvents(after: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.query<EventRow>(
      `SELECT sequence, urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata
         FROM change_log WHERE sequence > $1 ORDER BY sequence LIMIT $2`,
      [after, limit],
    );
    return rows.map(toEvent);
  }

  async pruneEvents(before: number): Promise<number> {
    // Creation times follow sequence order: what goes is the log's oldest stretch.
    const first = await this.query<{ sequence: string }>(`SELECT sequence FROM change_log WHERE created_on >= $1 ORDER BY sequence LIMIT 1`, [before]);
    const deleted = first.length === 0
      ? await this.count(`DELETE FROM change_log`, [])
      : await this.count(`DELETE FROM change_log WHERE sequence < $1`, [first[0].sequence]);
    return deleted;
  }

  private async count(text: string, values: unknown[]): Promise<number> {
    try {
      return (await this.pool.query(text, values)).rowCount ?? 0;
    } catch (error) {
      throw storeError(error);
    }
  }

  async insertToken(t: TokenRecord): Promise<void> {
    await this.query(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
      t.id, t.name, t.role, t.actor, t.hash, t.createdAt, t.createdBy, t.expiresAt, t.lastUsedAt, t.revokedAt,
    ]);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (await this.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id COLLATE "C"`)).map(toToken);
  }

  async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    const rows = await this.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $1`, [hash]);
    return rows[0] && toToken(rows[0]);
  }

  async revokeToken(id: string, at: number): Promise<boolean> {
    return (await this.count('UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, pgText(id)])) > 0;
  }

  async touchToken(id: string, at: number): Promise<void> {
    await this.query('UPDATE tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  async commit(batch: CommitBatch): Promise<void> {
    await this.transaction(async (client) => {
      for (const write of batch.writes) await apply(client, write);
      await writeIndex(client, batch.index ?? []);
      if (batch.events.length === 0) return;
      // A sequence is taken at insert but seen only at commit: without this lock a reader could
      // see sequence N+1 before N commits, store N+1 as its position and miss N forever. Held
      // from here to commit, so events become visible in sequence order.
      await client.query('SELECT pg_advisory_xact_lock($1)', [EVENT_LOCK]);
      for (const event of batch.events) await append(client, event);
    });
  }

  private async transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      const translated = storeError(error);
      if (!(translated instanceof StaleWriteError) && translated !== error) broken = true;
      throw translated;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function apply(client: pg.PoolClient, write: AspectWrite): Promise<void> {
  const { urn, aspect, expectedVersion } = write;
  const stale = () => new StaleWriteError(`${urn} ${aspect}: expected version ${expectedVersion}`);
  // The row lock taken here is the compare-and-set: a concurrent writer of the same aspect waits
  // for our commit and then finds a version it did not expect.
  const current = async () =>
    (await client.query<{ version: string }>('SELECT version FROM aspects WHERE urn = $1 AND aspect = $2 FOR UPDATE', [urn, aspect])).rows[0];
  switch (write.kind) {
    case 'put': {
      const sm = write.systemMetadata;
      const value = JSON.stringify(write.value);
      const systemMetadata = JSON.stringify(sm);
      const { time, actor } = sm.aspectModified;
      if (expectedVersion > 0) {
        const row = await current();
        if (!row || Number(row.version) !== expectedVersion) throw stale();
        await client.query(
          `INSERT INTO aspect_history (urn, aspect, version, metadata, system_metadata, created_on, created_by)
           SELECT urn, aspect, version, metadata, system_metadata, created_on, created_by FROM aspects WHERE urn = $1 AND aspect = $2`,
          [urn, aspect],
        );
        await client.query(
          `UPDATE aspects SET metadata = $3, system_metadata = $4, version = $5, created_on = $6, created_by = $7 WHERE urn = $1 AND aspect = $2`,
          [urn, aspect, value, systemMetadata, Number(sm.version), time, actor],
        );
      } else {
        const inserted = await client.query(
          `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (urn, aspect) DO NOTHING`,
          [urn, aspect, write.entityType, value, systemMetadata, Number(sm.version), time, actor],
        );
        if (inserted.rowCount === 0) throw stale();
      }
      break;
    }
    case 'touch': {
      const touched = await client.query('UPDATE aspects SET system_metadata = $3 WHERE urn = $1 AND aspect = $2 AND version = $4', [
        urn, aspect, JSON.stringify(write.systemMetadata), expectedVersion,
      ]);
      if (touched.rowCount === 0) throw stale();
      break;
    }
    case 'remove': {
      const row = await current();
      if (Number(row?.version ?? 0) !== expectedVersion) throw stale();
      await client.query('DELETE FROM aspect_history WHERE urn = $1 AND aspect = $2', [urn, aspect]);
      await client.query('DELETE FROM aspects WHERE urn = $1 AND aspect = $2', [urn, aspect]);
      break;
    }
  }
}

async function append(client: pg.PoolClient, e: ChangeEvent): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await client.query(
    `INSERT INTO change_log (urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [e.urn, e.entityType, e.aspect, e.changeType, e.created.time, e.created.actor, json(e.value), json(e.previousValue), json(e.systemMetadata)],
  );
}

/** A stored row; its system metadata is parsed only when someone reads it. */
class RowAspect implements StoredAspect {
  readonly value: unknown;
  private parsedSystemMetadata?: SystemMetadata;

  constructor(
    readonly urn: string,
    readonly aspect: string,
    readonly version: number,
    metadata: string,
    private readonly systemMetadataText: string,
  ) {
    this.value = JSON.parse(metadata);
  }

  get systemMetadata(): SystemMetadata {
    return (this.parsedSystemMetadata ??= JSON.parse(this.systemMetadataText) as SystemMetadata);
  }
}

function toStored(row: AspectRow): StoredAspect {
  return new RowAspect(row.urn, row.aspect, Number(row.version), row.metadata, row.system_metadata);
}

interface EventRow {
  sequence: string;
  urn: string;
  entity_type: string;
  aspect: string;
  change_type: ChangeType;
  created_on: string;
  created_by: string;
  value: string | null;
  previous_value: string | null;
  system_metadata: string | null;
}

function toEvent(row: EventRow): LoggedEvent {
  const json = (text: string | null) => (text === null ? null : JSON.parse(text));
  return {
    sequence: Number(row.sequence),
    urn: row.urn,
    entityType: row.entity_type,
    aspect: row.aspect,
    changeType: row.change_type,
    created: { time: Number(row.created_on), actor: row.created_by },
    value: json(row.value),
    previousValue: json(row.previous_value),
    systemMetadata: json(row.system_metadata),
  };
}

interface TokenRow {
  id: string;
  name: string;
  role: TokenRecord['role'];
  actor: string;
  hash: string;
  created_at: string;
  created_by: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toToken(row: TokenRow): TokenRecord {
  const time = (value: string | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    actor: row.actor,
    hash: row.hash,
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    expiresAt: time(row.expires_at),
    lastUsedAt: time(row.last_used_at),
    revokedAt: time(row.revoked_at),
  };
}
