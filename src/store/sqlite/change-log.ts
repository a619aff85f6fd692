import type Database from 'better-sqlite3';
import { toEvent, type EventRow } from '../rows.js';
import type { EventFilter, LoggedEvent } from '../store.js';
import { systemMetadataSql } from './system-metadata.js';

/**
 * An event's columns as the shared EventRow has them: its urn and aspect, and the values it refers
 * to (see event-rows.ts), are read from the aspects row that still holds them, or values from the
 * history row they moved to.
 */
const EVENT_COLUMNS = `c.sequence, coalesce(a.urn, c.urn) AS urn, c.entity_type, coalesce(a.aspect, c.aspect) AS aspect, c.change_type, c.created_on, c.created_by,
  CASE WHEN c.value_of IS NULL THEN c.value
       WHEN c.value_of = 0 AND a.event = c.sequence THEN a.metadata
       ELSE (SELECT h.metadata FROM aspect_history h WHERE h.id = c.value_of) END AS value,
  CASE WHEN c.previous_of IS NULL THEN c.previous_value
       ELSE (SELECT h.metadata FROM aspect_history h WHERE h.id = c.previous_of) END AS previous_value,
  ${systemMetadataSql('c')} AS system_metadata`;

const PRUNE_CHUNK = 5000;

/** Reads and prunes SQLite's change log (SqliteWriter appends to it, in the commit's transaction). */
export class SqliteChangeLog {
  private readonly stmt;
  /** Filtered reads, prepared once per shape (which filters, which order): at most 64. */
  private readonly filtered = new Map<string, Database.Statement<unknown[], EventRow>>();

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      events: db.prepare<[number, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM change_log c LEFT JOIN aspects a ON a.id = c.aspect_id WHERE c.sequence > ? ORDER BY c.sequence LIMIT ?`),
      // Creation times follow sequence order: what goes is the log's oldest stretch.
      firstKept: db.prepare<[number], number>(`SELECT sequence FROM change_log WHERE created_on >= ? ORDER BY sequence LIMIT 1`).pluck(),
      // A chunk at a time, so a large prune never holds the write lock for long.
      pruneChunk: db.prepare<[number]>(`DELETE FROM change_log WHERE sequence < ? AND sequence < (SELECT min(sequence) FROM change_log) + ${PRUNE_CHUNK}`),
    };
  }

  async readEvents(after: number, limit: number, filter?: EventFilter): Promise<LoggedEvent[]> {
    if (!filter) return this.stmt.events.all(after, limit).map(toEvent);
    const where = ['c.sequence > ?'];
    const values: unknown[] = [after];
    const equal = (expression: string, value: unknown) => (where.push(`${expression} = ?`), values.push(value));
    if (filter.upTo !== undefined) (where.push('c.sequence <= ?'), values.push(filter.upTo));
    if (filter.entityType !== undefined) equal('c.entity_type', filter.entityType);
    // One JSON list parameter, so that any number of exclusions is one prepared statement.
    if (filter.excludeEntityTypes?.length) (where.push('c.entity_type NOT IN (SELECT value FROM json_each(?))'), values.push(JSON.stringify(filter.excludeEntityTypes)));
    // The aspect as the columns read it: from the aspects row the event refers to, if any.
    if (filter.aspect !== undefined) equal('coalesce(a.aspect, c.aspect)', filter.aspect);
    if (filter.actor !== undefined) equal('c.created_by', filter.actor);
    const sql = `SELECT ${EVENT_COLUMNS} FROM change_log c LEFT JOIN aspects a ON a.id = c.aspect_id WHERE ${where.join(' AND ')} ORDER BY c.sequence ${filter.newestFirst ? 'DESC' : ''} LIMIT ?`;
    let statement = this.filtered.get(sql);
    if (!statement) this.filtered.set(sql, (statement = this.db.prepare<unknown[], EventRow>(sql)));
    return statement.all(...values, limit).map(toEvent);
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
}
