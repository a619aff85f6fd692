import type pg from 'pg';
import { jsonText } from '../../json.js';
import { toPoint, type PointRow } from '../rows.js';
import type { PointCursor, PointQuery, PointRemoval, StoredPoint, TimeseriesPoint } from '../store.js';
import type { StorePool } from './pool.js';
import { prepared } from './prepared.js';
import type { WriteStatement } from './write-statement.js';

const COLUMNS = 'id, urn, aspect, timestamp_millis, point_key, value, system_metadata, created_on, created_by';
const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Timeseries points in PostgreSQL (`timeseries_points`): the writer adds their writes to a group's
 * statement (addPointWrites) and runs removals before it (removePoints); reads are here. Each read
 * walks an index in order, as on SQLite.
 */
export class PostgresPoints {
  constructor(private readonly db: StorePool) {}

  async read(urn: string, aspect: string, { start = MIN, end = MAX, before, limit }: PointQuery): Promise<StoredPoint[]> {
    const after = before ?? { timestampMillis: MAX, key: '\u{10FFFF}' };
    const rows = await this.db.rows<PointRow>(
      `SELECT ${COLUMNS} FROM timeseries_points
        WHERE urn = $1 AND aspect = $2 AND timestamp_millis >= $3 AND timestamp_millis <= $4 AND (timestamp_millis, point_key) < ($5, $6)
        ORDER BY timestamp_millis DESC, point_key DESC LIMIT $7`,
      [urn, aspect, start, Math.min(end, after.timestampMillis), after.timestampMillis, after.key, limit],
    );
    return rows.map(toPoint);
  }

  async latest(pairs: ReadonlyArray<{ urn: string; aspect: string }>): Promise<StoredPoint[]> {
    if (pairs.length === 0) return [];
    const rows = await this.db.rows<PointRow>(
      `SELECT p.* FROM unnest($1::text[], $2::text[]) AS x(urn, aspect)
        CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM timeseries_points t WHERE t.urn = x.urn AND t.aspect = x.aspect
                             ORDER BY t.timestamp_millis DESC, t.point_key DESC LIMIT 1) p`,
      [pairs.map((p) => p.urn), pairs.map((p) => p.aspect)],
    );
    return rows.map(toPoint);
  }

  async scroll(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): Promise<StoredPoint[]> {
    const after = query.after ?? { timestampMillis: MAX, id: MAX };
    const rows = await this.db.rows<PointRow>(
      `SELECT ${COLUMNS} FROM timeseries_points
        WHERE aspect = $1 AND entity_type = $2 AND timestamp_millis >= $3 AND timestamp_millis <= $4 AND (timestamp_millis, id) < ($5, $6)
        ORDER BY timestamp_millis DESC, id DESC LIMIT $7`,
      [aspect, entityType, query.start ?? MIN, Math.min(query.end ?? MAX, after.timestampMillis), after.timestampMillis, after.id, query.limit],
    );
    return rows.map(toPoint);
  }

  /** Outside a commit: one statement, so all or nothing. */
  deletePoints(removal: PointRemoval): Promise<number> {
    return this.db.count(REMOVE, removalValues(removal));
  }

  prune(aspect: string, before: number, limit: number): Promise<number> {
    return this.db.count(
      `DELETE FROM timeseries_points WHERE id IN (SELECT id FROM timeseries_points WHERE aspect = $1 AND timestamp_millis < $2 ORDER BY timestamp_millis LIMIT $3)`,
      [aspect, before, limit],
    );
  }
}

const REMOVE = `DELETE FROM timeseries_points WHERE urn = $1 AND ($2::text[] IS NULL OR aspect = ANY($2::text[])) AND timestamp_millis >= $3 AND timestamp_millis <= $4`;

function removalValues({ urn, aspects, start = MIN, end = MAX }: PointRemoval): unknown[] {
  return [urn, aspects ? [...aspects] : null, start, end];
}

/** Removals in a group's transaction, before its write statement (which then may write the same entities' points). */
export async function removePoints(client: pg.ClientBase, removals: readonly PointRemoval[]): Promise<void> {
  for (const removal of removals) await client.query(prepared(REMOVE, removalValues(removal)));
}

/**
 * A group's points as a part of its write statement. A part may not change one row twice, so a
 * key written twice in the group is written once, with its last point.
 */
export function addPointWrites(statement: WriteStatement, points: readonly TimeseriesPoint[]): void {
  if (points.length === 0) return;
  const byKey = new Map<string, TimeseriesPoint>();
  for (const p of points) byKey.set(JSON.stringify([p.urn, p.aspect, p.timestampMillis, p.key]), p);
  const list = [...byKey.values()];
  const param = (values: unknown[], type: string) => statement.param(values, type);
  statement.add(
    'points_written',
    `INSERT INTO timeseries_points (urn, aspect, entity_type, timestamp_millis, point_key, value, system_metadata, created_on, created_by)
     SELECT * FROM unnest(${param(list.map((p) => p.urn), 'text[]')}, ${param(list.map((p) => p.aspect), 'text[]')}, ${param(list.map((p) => p.entityType), 'text[]')},
                          ${param(list.map((p) => p.timestampMillis), 'bigint[]')}, ${param(list.map((p) => p.key), 'text[]')}, ${statement.jsonTexts(list.map((p) => jsonText(p.value)))},
                          ${statement.jsonTexts(list.map((p) => jsonText(p.systemMetadata)))}, ${param(list.map((p) => p.written.time), 'bigint[]')}, ${param(list.map((p) => p.written.actor), 'text[]')})
     ON CONFLICT (urn, aspect, timestamp_millis, point_key) DO UPDATE SET
       entity_type = EXCLUDED.entity_type, value = EXCLUDED.value, system_metadata = EXCLUDED.system_metadata,
       created_on = EXCLUDED.created_on, created_by = EXCLUDED.created_by`,
  );
}
