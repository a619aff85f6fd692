import { EVENT_COLUMNS, toEvent, type EventRow } from '../rows.js';
import type { LoggedEvent } from '../store.js';
import type { StorePool } from './pool.js';

/** Reads and prunes PostgreSQL's change log (writer.ts appends to it, in the commit's transaction). */
export class PostgresChangeLog {
  constructor(private readonly db: StorePool) {}

  async readEvents(after: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.db.rows<EventRow>(`SELECT ${EVENT_COLUMNS} FROM change_log WHERE sequence > $1 ORDER BY sequence LIMIT $2`, [after, limit]);
    return rows.map(toEvent);
  }

  async pruneEvents(before: number): Promise<number> {
    // Creation times follow sequence order: what goes is the log's oldest stretch.
    const first = await this.db.rows<{ sequence: string }>(`SELECT sequence FROM change_log WHERE created_on >= $1 ORDER BY sequence LIMIT 1`, [before]);
    const deleted = first.length === 0
      ? await this.db.count(`DELETE FROM change_log`, [])
      : await this.db.count(`DELETE FROM change_log WHERE sequence < $1`, [first[0].sequence]);
    return deleted;
  }
}
