import type Database from 'better-sqlite3';
import { RowAspect, toStored, type AspectRow } from '../rows.js';
import type { AspectVersion, StoredAspect } from '../store.js';
import { systemMetadataSql } from './system-metadata.js';
import { HISTORY_CHAIN } from './writer.js';

/** Latest rows read as storage version 0 (history rows keep their own version), system metadata as JSON text. */
const LATEST_COLUMNS = `urn, aspect, 0 AS version, metadata, ${systemMetadataSql('aspects')} AS system_metadata`;

type RawAspectRow = [urn: string, aspect: string, version: number, metadata: string, systemMetadata: string];

type RawVersionRow = [aspect: string, version: number, latest: number, metadata: string, createdOn: number, createdBy: string];

/**
 * An entity's versions down each aspect's history chain, newest first, while the version just
 * read was written at or after :since (so the chain stops one past the window). LIMIT inside the
 * recursive query stops the walk itself, not just its answer.
 */
const HISTORY_SINCE = `WITH RECURSIVE versions(aspect, version, latest, metadata, created_on, created_by, previous_id) AS (
    SELECT aspect, version, 1, metadata, created_on, created_by, history_id FROM aspects WHERE urn = :urn
    UNION ALL
    SELECT v.aspect, h.version, 0, h.metadata, h.created_on, h.created_by, h.previous_id
      FROM versions v JOIN aspect_history h ON h.id = v.previous_id WHERE v.created_on >= :since
    LIMIT :limit
  ) SELECT aspect, version, latest, metadata, created_on, created_by FROM versions ORDER BY aspect, version`;

/** Queries naming up to this many aspects (and URNs) get statements with placeholders; more go through json_each. */
const LISTED_ASPECTS = 8;
export const LISTED_URNS = 16;

/**
 * The statements that read aspects from SQLite, straight from the tables: latest values, an
 * earlier version (down the history chain), pages of one aspect or of URNs, a range of URNs.
 * CachedReads decides which latest-value reads reach them.
 */
export class AspectReads {
  private readonly stmt;
  private readonly latestOf: Array<Database.Statement<unknown[], AspectRow>>;
  private readonly manyStatements = new Map<number, Database.Statement<unknown[], AspectRow>>();

  constructor(private readonly db: Database.Database) {
    const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    this.latestOf = Array.from({ length: LISTED_ASPECTS + 1 }, (_, n) =>
      db.prepare<unknown[], AspectRow>(
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ?${n > 0 ? ` AND aspect IN (${placeholders(n)})` : ''}`,
      ),
    );
    this.stmt = {
      latestJson: db.prepare<[string, string], AspectRow>(
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ? AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      manyAll: db.prepare<[string], AspectRow>(
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?))`,
      ),
      manySome: db.prepare<[string, string], AspectRow>(
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn IN (SELECT value FROM json_each(?))
           AND aspect IN (SELECT value FROM json_each(?))`,
      ),
      history: db.prepare<[{ urn: string; since: number; limit: number }], unknown[]>(HISTORY_SINCE).raw(),
      version: db.prepare<[{ urn: string; aspect: string; down_to: number }], AspectRow>(
        `${HISTORY_CHAIN} SELECT h.urn, h.aspect, h.version, h.metadata, ${systemMetadataSql('h')} AS system_metadata
           FROM chain JOIN aspect_history h USING (id) WHERE chain.version = :down_to`,
      ),
      scanAspect: db.prepare<[string, string, number], AspectRow>(
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE aspect = ? AND urn > ? ORDER BY urn LIMIT ?`,
      ),
      listUrns: db.prepare<[string, string, number], string>(`SELECT urn FROM aspects WHERE aspect = ? AND urn > ? ORDER BY urn LIMIT ?`).pluck(),
      // One pass over a primary-key range, not a lookup per (urn, aspect): several times faster for
      // pages of consecutive URNs (`+entity_type` keeps the planner off aspects_by_type, which
      // would cost a lookup per row). Raw rows: [urn, aspect, version, metadata, system_metadata].
      range: db
        .prepare<[string, string, string], unknown[]>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn > ? AND urn <= ? AND +entity_type = ? ORDER BY urn, aspect`)
        .raw(),
    };
  }

  /** Latest values of the URNs' aspects (all of them when `aspects` is undefined). */
  latest(urns: readonly string[], aspects: readonly string[] | undefined): RowAspect[] {
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
        `SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn IN (${list(urns)})${aspects > 0 ? ` AND aspect IN (${list(aspects)})` : ''}`,
      );
      this.manyStatements.set(key, statement);
    }
    return statement;
  }

  /** An earlier value (version > 0), found by walking the aspect's history chain. */
  version(urn: string, aspect: string, version: number): StoredAspect | undefined {
    const row = this.stmt.version.get({ urn, aspect, down_to: version });
    return row && toStored(row);
  }

  /** The versions a timeline from `since` needs (Store.getHistory). */
  history(urn: string, since: number, limit: number): AspectVersion[] {
    return (this.stmt.history.all({ urn, since, limit }) as RawVersionRow[]).map(([aspect, version, latest, metadata, time, actor]) => ({
      aspect,
      version,
      latest: latest === 1,
      value: JSON.parse(metadata),
      created: { time, actor },
    }));
  }

  scanAspect(aspect: string, after: string | undefined, limit: number): StoredAspect[] {
    return this.stmt.scanAspect.all(aspect, after ?? '', limit).map(toStored);
  }

  listUrns(keyAspect: string, after: string | undefined, limit: number): string[] {
    return this.stmt.listUrns.all(keyAspect, after ?? '', limit);
  }

  range(entityType: string, after: string | undefined, last: string, aspects?: readonly string[]): StoredAspect[] {
    const wanted = aspects && new Set(aspects);
    const rows: StoredAspect[] = [];
    // URNs of one type share the prefix `urn:li:<type>:`, so none of another type sorts between two of them.
    for (const row of this.stmt.range.all(after ?? `urn:li:${entityType}:`, last, entityType) as RawAspectRow[]) {
      // Unwanted aspects are skipped before their JSON is parsed.
      if (!wanted || wanted.has(row[1])) rows.push(new RowAspect(row[0], row[1], row[2], row[3], row[4]));
    }
    return rows;
  }
}
