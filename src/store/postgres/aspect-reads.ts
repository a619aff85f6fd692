import { LATEST_COLUMNS, toStored, type AspectRow } from '../rows.js';
import type { StoredAspect } from '../store.js';
import type { StorePool } from './pool.js';

/**
 * The statements that read aspects from PostgreSQL: latest values, an earlier version (history
 * rows are keyed by version: no chain to walk), pages of one aspect or of URNs, a range of URNs.
 * No cache: other replicas write the same database.
 */
export class AspectReads {
  constructor(private readonly db: StorePool) {}

  async getLatestMany(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (urns.length === 0) return [];
    const rows = aspects
      ? await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ANY($1::text[]) AND aspect = ANY($2::text[])`, [urns, aspects])
      : await this.db.rows<AspectRow>(`SELECT ${LATEST_COLUMNS} FROM aspects WHERE urn = ANY($1::text[])`, [urns]);
    return rows.map(toStored);
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    if (version === 0) return (await this.getLatestMany([urn], [aspect]))[0];
    const rows = await this.db.rows<AspectRow>(
      `SELECT urn, aspect, version, metadata, system_metadata FROM aspect_history WHERE urn = $1 AND aspect = $2 AND version = $3`,
      [urn, aspect, version],
    );
    return rows[0] && toStored(rows[0]);
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
