import { EVENT_COLUMNS, toEvent, type EventRow } from '../rows.js';
import type { EventFilter, LoggedEvent } from '../store.js';
import type { StorePool } from './pool.js';

/** Reads and prunes PostgreSQL's change log (writer.ts appends to it, in the commit's transaction). */
export class PostgresChangeLog {
  constructor(private readonly db: StorePool) {}

  async readEvents(after: number, limit: number, filter: EventFilter = {}): Promise<LoggedEvent[]> {
    const values: unknown[] = [after, limit];
    const where = ['sequence > $1'];
    const equal = (column: string, value: unknown) => where.push(`${column} = $${values.push(value)}`);
    if (filter.upTo !== undefined) where.push(`sequence <= $${values.push(filter.upTo)}`);
    if (filter.entityType !== undefined) equal('entity_type', filter.entityType);
    if (filter.excludeEntityTypes?.length) where.push(`entity_type <> ALL($${values.push([...filter.excludeEntityTypes])}::text[])`);
    if (filter.aspect !== undefined) equal('aspect', filter.aspect);
    if (filter.actor !== undefined) equal('created_by', filter.actor);
    const order = filter.newestFirst ? 'DESC' : '';
    const rows = await this.db.rows<EventRow>(`SELECT ${EVENT_COLUMNS} FROM change_log WHERE ${where.join(' AND ')} ORDER BY sequence ${order} LIMIT $2`, values);
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
