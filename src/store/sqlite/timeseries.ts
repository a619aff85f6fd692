import type Database from 'better-sqlite3';
import { jsonText } from '../../json.js';
import { toPoint, type PointRow } from '../rows.js';
import type { PointCursor, PointQuery, PointRemoval, StoredPoint, TimeseriesPoint } from '../store.js';

const COLUMNS = 'id, urn, aspect, timestamp_millis, point_key, value, system_metadata, created_on, created_by';
// Unbounded ends of a time range, as numbers the index compares (timestampMillis is a long).
const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Timeseries points in SQLite (`timeseries_points`): written by SqliteWriter in the commit's
 * transaction (writePoint, removePoints), read here. Every read walks an index in order: an
 * entity's points by `(urn, aspect, timestamp_millis, point_key)` backwards, an aspect's by
 * `(aspect, timestamp_millis)` whose entries end with the rowid.
 */
export class SqlitePoints {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      upsert: db.prepare(
        `INSERT INTO timeseries_points (urn, aspect, entity_type, timestamp_millis, point_key, value, system_metadata, created_on, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (urn, aspect, timestamp_millis, point_key) DO UPDATE SET
           entity_type = excluded.entity_type, value = excluded.value, system_metadata = excluded.system_metadata,
           created_on = excluded.created_on, created_by = excluded.created_by`,
      ),
      read: db.prepare<[string, string, number, number, number, string, number], PointRow>(
        `SELECT ${COLUMNS} FROM timeseries_points
          WHERE urn = ? AND aspect = ? AND timestamp_millis >= ? AND timestamp_millis <= ? AND (timestamp_millis, point_key) < (?, ?)
          ORDER BY timestamp_millis DESC, point_key DESC LIMIT ?`,
      ),
      readFirst: db.prepare<[string, string, number, number, number], PointRow>(
        `SELECT ${COLUMNS} FROM timeseries_points
          WHERE urn = ? AND aspect = ? AND timestamp_millis >= ? AND timestamp_millis <= ?
          ORDER BY timestamp_millis DESC, point_key DESC LIMIT ?`,
      ),
      latest: db.prepare<[string, string], PointRow>(
        `SELECT ${COLUMNS} FROM timeseries_points WHERE urn = ? AND aspect = ? ORDER BY timestamp_millis DESC, point_key DESC LIMIT 1`,
      ),
      scroll: db.prepare<[string, string, number, number, number, number, number], PointRow>(
        `SELECT ${COLUMNS} FROM timeseries_points
          WHERE aspect = ? AND entity_type = ? AND timestamp_millis >= ? AND timestamp_millis <= ? AND (timestamp_millis, id) < (?, ?)
          ORDER BY timestamp_millis DESC, id DESC LIMIT ?`,
      ),
      remove: db.prepare<[string, number, number]>('DELETE FROM timeseries_points WHERE urn = ? AND timestamp_millis >= ? AND timestamp_millis <= ?'),
      removeAspect: db.prepare<[string, string, number, number]>(
        'DELETE FROM timeseries_points WHERE urn = ? AND aspect = ? AND timestamp_millis >= ? AND timestamp_millis <= ?',
      ),
      prune: db.prepare<[string, number, number]>(
        'DELETE FROM timeseries_points WHERE id IN (SELECT id FROM timeseries_points WHERE aspect = ? AND timestamp_millis < ? LIMIT ?)',
      ),
    };
  }

  /** Writes a point, replacing the stored one with its key (inside the caller's transaction). */
  writePoint(p: TimeseriesPoint): void {
    this.stmt.upsert.run(p.urn, p.aspect, p.entityType, p.timestampMillis, p.key, jsonText(p.value), jsonText(p.systemMetadata), p.written.time, p.written.actor);
  }

  /** Removes points (inside the caller's transaction, or alone); returns how many went. */
  removePoints({ urn, aspects, start = MIN, end = MAX }: PointRemoval): number {
    if (aspects === undefined) return this.stmt.remove.run(urn, start, end).changes;
    let removed = 0;
    for (const aspect of aspects) removed += this.stmt.removeAspect.run(urn, aspect, start, end).changes;
    return removed;
  }

  read(urn: string, aspect: string, { start = MIN, end = MAX, before, limit }: PointQuery): StoredPoint[] {
    // The range ends at the keyset position too, so the index walk starts there instead of skipping the points already read.
    const rows = before
      ? this.stmt.read.all(urn, aspect, start, Math.min(end, before.timestampMillis), before.timestampMillis, before.key, limit)
      : this.stmt.readFirst.all(urn, aspect, start, end, limit);
    return rows.map(toPoint);
  }

  latest(pairs: ReadonlyArray<{ urn: string; aspect: string }>): StoredPoint[] {
    const found: StoredPoint[] = [];
    for (const { urn, aspect } of pairs) {
      const row = this.stmt.latest.get(urn, aspect);
      if (row) found.push(toPoint(row));
    }
    return found;
  }

  scroll(entityType: string, aspect: string, query: { start?: number; end?: number; after?: PointCursor; limit: number }): StoredPoint[] {
    const after = query.after ?? { timestampMillis: MAX, id: MAX };
    return this.stmt.scroll.all(aspect, entityType, query.start ?? MIN, Math.min(query.end ?? MAX, after.timestampMillis), after.timestampMillis, after.id, query.limit).map(toPoint);
  }

  prune(aspect: string, before: number, limit: number): number {
    return this.stmt.prune.run(aspect, before, limit).changes;
  }
}
