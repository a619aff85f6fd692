import type Database from 'better-sqlite3';
import { SqliteIndexWriter } from './search-index.js';
import { StaleWriteError, type AspectWrite, type ChangeEvent, type CommitBatch } from '../store.js';
import { jsonText } from '../../json.js';

const HISTORY_COLUMNS = 'urn, aspect, version, metadata, system_metadata, created_on, created_by';

/** The ids of an aspect's history rows, newest first (see the schema's note on the chain). */
export const HISTORY_CHAIN = `WITH RECURSIVE chain(id, version, previous_id) AS (
    SELECT h.id, h.version, h.previous_id FROM aspects a JOIN aspect_history h ON h.id = a.history_id
     WHERE a.urn = :urn AND a.aspect = :aspect
    UNION ALL
    SELECT h.id, h.version, h.previous_id FROM chain c JOIN aspect_history h ON h.id = c.previous_id
     WHERE c.version > :down_to
  )`;

/**
 * The statements that change the catalog. Latest values are updated in place in `aspects`; the
 * value they replace is appended to `aspect_history`, whose rowid key puts every new row on the
 * table's last page. (Keeping history rows beside the latest ones, as a first version did, made
 * each write split and rebalance random pages of one big tree: a third more pages per commit.)
 */
export class SqliteWriter {
  private readonly stmt;
  private readonly group: Database.Transaction<(group: readonly CommitBatch[]) => void>;
  private readonly index: SqliteIndexWriter;

  constructor(db: Database.Database) {
    this.index = new SqliteIndexWriter(db);
    this.stmt = {
      current: db.prepare<[string, string], { version: number }>('SELECT version FROM aspects WHERE urn = ? AND aspect = ?'),
      // The version guard is the compare-and-set: nothing archived means a concurrent writer won.
      archive: db.prepare(
        `INSERT INTO aspect_history (previous_id, ${HISTORY_COLUMNS})
         SELECT history_id, ${HISTORY_COLUMNS} FROM aspects WHERE urn = ? AND aspect = ? AND version = ?`,
      ),
      update: db.prepare(
        `UPDATE aspects SET metadata = ?, system_metadata = ?, version = ?, created_on = ?, created_by = ?, history_id = ?
          WHERE urn = ? AND aspect = ?`,
      ),
      insert: db.prepare(
        `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      touch: db.prepare('UPDATE aspects SET system_metadata = ? WHERE urn = ? AND aspect = ? AND version = ?'),
      remove: db.prepare('DELETE FROM aspects WHERE urn = ? AND aspect = ?'),
      removeHistory: db.prepare(`DELETE FROM aspect_history WHERE id IN (${HISTORY_CHAIN} SELECT id FROM chain)`),
      event: db.prepare(
        `INSERT INTO change_log (urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
    this.group = db.transaction((group: readonly CommitBatch[]) => {
      for (const batch of group) {
        const index = batch.index ?? [];
        // Entity ids come from key rows, which a delete removes: read them first.
        const ids = this.index.entityIds(index);
        for (const write of batch.writes) this.apply(write);
        for (const event of batch.events) this.append(event);
        this.index.write(index, ids);
      }
    });
  }

  /**
   * Group commit: the batches go into one transaction, so a commit's fixed cost is shared. Should
   * one fail (a lost compare-and-set), the group rolls back and each batch is retried alone, so
   * batches stay all-or-nothing independently of each other. Returns each batch's failure, if any.
   */
  commit(group: readonly CommitBatch[]): Array<Error | undefined> {
    try {
      this.group.immediate(group);
      return group.map(() => undefined);
    } catch (error) {
      if (group.length === 1) return [asError(error)];
      return group.map((batch) => {
        try {
          this.group.immediate([batch]);
          return undefined;
        } catch (error) {
          return asError(error);
        }
      });
    }
  }

  private nullable(value: unknown): string | null {
    return value === undefined || value === null ? null : jsonText(value);
  }

  private apply(write: AspectWrite): void {
    const { urn, aspect, expectedVersion } = write;
    const stale = () => new StaleWriteError(`${urn} ${aspect}: expected version ${expectedVersion}`);
    switch (write.kind) {
      case 'put': {
        const sm = write.systemMetadata;
        const value = jsonText(write.value);
        const systemMetadata = jsonText(sm);
        const version = Number(sm.version);
        const { time, actor } = sm.aspectModified;
        if (expectedVersion > 0) {
          const archived = this.stmt.archive.run(urn, aspect, expectedVersion);
          if (archived.changes === 0) throw stale();
          this.stmt.update.run(value, systemMetadata, version, time, actor, archived.lastInsertRowid, urn, aspect);
        } else if (this.stmt.current.get(urn, aspect)) {
          throw stale();
        } else {
          this.stmt.insert.run(urn, aspect, write.entityType, value, systemMetadata, version, time, actor);
        }
        break;
      }
      case 'touch':
        if (this.stmt.touch.run(jsonText(write.systemMetadata), urn, aspect, expectedVersion).changes === 0) throw stale();
        break;
      case 'remove':
        if ((this.stmt.current.get(urn, aspect)?.version ?? 0) !== expectedVersion) throw stale();
        this.stmt.removeHistory.run({ urn, aspect, down_to: 0 });
        this.stmt.remove.run(urn, aspect);
        break;
    }
  }

  private append(e: ChangeEvent): void {
    this.stmt.event.run(
      e.urn,
      e.entityType,
      e.aspect,
      e.changeType,
      e.created.time,
      e.created.actor,
      this.nullable(e.value),
      this.nullable(e.previousValue),
      this.nullable(e.systemMetadata),
    );
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
