import { LATEST_COLUMNS, toStored, type AspectRow } from '../rows.js';
import type { AspectVersion, StoredAspect } from '../store.js';
import type { StorePool } from './pool.js';

/** Reads of latest values asked for in one turn of the event loop, for one list of aspects. */
interface LatestReads {
  aspects?: readonly string[];
  urns: Set<string>;
  callers: Array<{ urns: ReadonlySet<string>; resolve: (aspects: StoredAspect[]) => void; reject: (error: unknown) => void }>;
}

/**
 * The statements that read aspects from PostgreSQL: latest values, an earlier version (history
 * rows are keyed by version: no chain to walk), pages of one aspect or of URNs, a range of URNs.
 * No cache: other replicas write the same database.
 */
export class AspectReads {
  /** Latest-value reads waiting for the end of this turn, by their list of aspects. */
  private waiting = new Map<string, LatestReads>();

  constructor(private readonly db: StorePool) {}

  /**
   * Latest values. The reads asked for in one turn of the event loop (the requests that arrived
   * together) for the same aspects are answered by one statement, sent at the end of the turn: a
   * round trip costs more here than the rows it brings back. Each read is still sent after it
   * was asked for, so it sees every write committed before.
   */
  getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (urns.length === 0) return Promise.resolve([]);
    const key = aspects ? JSON.stringify(aspects) : '*';
    let reads = this.waiting.get(key);
    if (!reads) {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      this.waiting.set(key, (reads = { aspects, urns: new Set(), callers: [] }));
    }
    for (const urn of urns) reads.urns.add(urn);
    const caller = new Set(urns);
    return new Promise((resolve, reject) => reads.callers.push({ urns: caller, resolve, reject }));
  }

  private flush(): void {
    const all = [...this.waiting.values()];
    this.waiting = new Map();
    for (const reads of all) void this.readLatest(reads);
  }

  private async readLatest({ aspects, urns, callers }: LatestReads): Promise<void> {
    let rows: AspectRow[];
    try {
      rows = aspects
        ? await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ANY($1::text[]) AND aspect = ANY($2::text[])`, [[...urns], aspects])
        : await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ANY($1::text[])`, [[...urns]]);
    } catch (error) {
      for (const caller of callers) caller.reject(error);
      return;
    }
    // Each caller gets objects of its own (a value is parsed per object, and callers may change theirs).
    for (const caller of callers) caller.resolve(rows.filter((row) => caller.urns.has(row.urn)).map(toStored));
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    if (version === 0) return (await this.getLatestMany([urn], [aspect]))[0];
    const rows = await this.db.rows<AspectRow>(
      `SELECT urn, aspect, version, metadata, system_metadata FROM aspect_history WHERE urn = $1 AND aspect = $2 AND version = $3`,
      [urn, aspect, version],
    );
    return rows[0] && toStored(rows[0]);
  }

  /**
   * The versions a timeline from `since` needs (Store.getHistory): per aspect, every version from
   * the newest one written before `since` up (history rows are read through their key's urn prefix).
   */
  async getHistory(urn: string, since: number, limit: number): Promise<AspectVersion[]> {
    const rows = await this.db.rows<{ aspect: string; version: string; latest: boolean; metadata: string; created_on: string; created_by: string }>(
      `SELECT aspect, version, latest, metadata, created_on, created_by FROM (
         SELECT *, max(CASE WHEN created_on < $2 THEN version END) OVER (PARTITION BY aspect) AS floor FROM (
           SELECT aspect, version, true AS latest, metadata, created_on, created_by FROM aspects WHERE urn = $1
           UNION ALL
           SELECT aspect, version, false, metadata, created_on, created_by FROM aspect_history WHERE urn = $1
         ) AS all_versions
       ) AS windowed
       WHERE version >= coalesce(floor, 0) ORDER BY aspect, version LIMIT $3`,
      [urn, since, limit],
    );
    return rows.map((row) => ({
      aspect: row.aspect,
      version: Number(row.version),
      latest: row.latest,
      value: JSON.parse(row.metadata),
      created: { time: Number(row.created_on), actor: row.created_by },
    }));
  }

  async scanAspect(aspect: string, after: string | undefined, limit: number): Promise<StoredAspect[]> {
    const rows = await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE aspect = $1 AND urn > $2 ORDER BY urn LIMIT $3`, [aspect, after ?? '', limit]);
    return rows.map(toStored);
  }

  async listUrns(keyAspect: string, after: string | undefined, limit: number): Promise<string[]> {
    const rows = await this.db.rows<{ urn: string }>(`SELECT urn FROM aspects WHERE aspect = $1 AND urn > $2 ORDER BY urn LIMIT $3`, [keyAspect, after ?? '', limit]);
    return rows.map((r) => r.urn);
  }

  async getLatestRange(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    // URNs of one type share the prefix `urn:li:<type>:`, so none of another type sorts between two of them.
    const from = after ?? `urn:li:${entityType}:`;
    const rows = aspects
      ? await this.db.rows<AspectRow>(
          `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn > $1 AND urn <= $2 AND entity_type = $3 AND aspect = ANY($4::text[]) ORDER BY urn, aspect`,
          [from, last, entityType, aspects],
        )
      : await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn > $1 AND urn <= $2 AND entity_type = $3 ORDER BY urn, aspect`, [from, last, entityType]);
    return rows.map(toStored);
  }
}
