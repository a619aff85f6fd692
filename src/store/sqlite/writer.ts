import type Database from 'better-sqlite3';
import type { SqliteGraph } from './graph.js';
import { SqliteIndexWriter } from './search-index.js';
import { StaleWriteError, type AspectPut, type AspectWrite, type CommitBatch } from '../store.js';
import { jsonText } from '../../json.js';
import { Pacer } from '../../pace.js';
import { aspectKey, EVENT_INSERT_COLUMNS, PendingEvents } from './event-rows.js';
import { encodeSystemMetadata, SM_COLUMNS } from './system-metadata.js';
import type { SqlitePoints } from './timeseries.js';

const SM = SM_COLUMNS.join(', ');
const HISTORY_COLUMNS = `urn, aspect, version, metadata, system_metadata, ${SM}, created_on, created_by, event`;
/** What a put reads of the latest row: the values its archive takes (previous_id, then HISTORY_COLUMNS), then its id. */
const LATEST_COLUMNS = ['history_id', ...HISTORY_COLUMNS.split(', '), 'id'];
const LATEST = { version: LATEST_COLUMNS.indexOf('version'), metadata: LATEST_COLUMNS.indexOf('metadata'), event: LATEST_COLUMNS.indexOf('event'), id: LATEST_COLUMNS.indexOf('id') };

/** The ids of an aspect's history rows, newest first (see the schema's note on the chain). */
export const HISTORY_CHAIN = `WITH RECURSIVE chain(id, version, previous_id) AS (
    SELECT h.id, h.version, h.previous_id FROM aspects a JOIN aspect_history h ON h.id = a.history_id
     WHERE a.urn = :urn AND a.aspect = :aspect
    UNION ALL
    SELECT h.id, h.version, h.previous_id FROM chain c JOIN aspect_history h ON h.id = c.previous_id
     WHERE c.version > :down_to
  )`;

interface VersionRow {
  /** null: the latest value (the aspects row). */
  id: number | null;
  event: number | null;
  previous_id: number | null;
  metadata: string;
}

/**
 * The statements that change the catalog. Latest values are updated in place in `aspects`; the
 * value they replace is appended to `aspect_history`, whose rowid key puts every new row on the
 * table's last page. (Keeping history rows beside the latest ones, as a first version did, made
 * each write split and rebalance random pages of one big tree: a third more pages per commit.)
 * A change-log event refers to the versions it logs instead of repeating them (event-rows.ts).
 */
export class SqliteWriter {
  private readonly stmt;
  private readonly group: Database.Transaction<(group: readonly CommitBatch[]) => void>;
  private readonly index: SqliteIndexWriter;

  constructor(
    private readonly db: Database.Database,
    private readonly points: SqlitePoints,
    private readonly graph: SqliteGraph,
  ) {
    this.index = new SqliteIndexWriter(db);
    this.stmt = {
      current: db.prepare<[string, string], { id: number; version: number; event: number | null }>(
        'SELECT id, version, event FROM aspects WHERE urn = ? AND aspect = ?',
      ),
      lastSequence: db.prepare<[], number>(`SELECT seq FROM sqlite_sequence WHERE name = 'change_log'`).pluck(),
      // A put's one read of the latest row, whole: its version for the compare-and-set, and the
      // values it archives. Read, then inserted: an INSERT … SELECT may fail midway
      // (NOT NULL columns), so it runs in a savepoint, where FTS5 flushes the terms the write just
      // changed: 16–20 µs, against 4–5 for a read and an insert (bench/write-path.ts, 2026-11-26).
      // Each statement of a put changes one row.
      latest: db.prepare<[string, string], unknown[]>(`SELECT ${LATEST_COLUMNS.join(', ')} FROM aspects WHERE urn = ? AND aspect = ?`).raw(),
      archive: db.prepare<unknown[]>(`INSERT INTO aspect_history (previous_id, ${HISTORY_COLUMNS}) VALUES (?, ${HISTORY_COLUMNS.split(',').map(() => '?').join(', ')})`),
      update: db.prepare(
        `UPDATE aspects SET metadata = ?, system_metadata = ?, sm_observed = ?, sm_run = ?, sm_source = ?, sm_created_on = ?, sm_created_by = ?,
                version = ?, created_on = ?, created_by = ?, history_id = ?, event = ?
          WHERE id = ?`,
      ),
      insert: db.prepare(
        `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, ${SM}, version, created_on, created_by, event)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      touch: db.prepare(
        `UPDATE aspects SET system_metadata = ?, sm_observed = ?, sm_run = ?, sm_source = ?, sm_created_on = ?, sm_created_by = ?, created_on = ?, created_by = ?
          WHERE urn = ? AND aspect = ? AND version = ?`,
      ),
      remove: db.prepare('DELETE FROM aspects WHERE urn = ? AND aspect = ?'),
      removeHistory: db.prepare(`DELETE FROM aspect_history WHERE id IN (${HISTORY_CHAIN} SELECT id FROM chain)`),
      versions: db.prepare<[{ urn: string; aspect: string }], VersionRow>(
        `WITH RECURSIVE versions(id, event, previous_id, metadata) AS (
           SELECT NULL, event, history_id, metadata FROM aspects WHERE urn = :urn AND aspect = :aspect
           UNION ALL
           SELECT h.id, h.event, h.previous_id, h.metadata FROM versions v JOIN aspect_history h ON h.id = v.previous_id
         ) SELECT * FROM versions`,
      ),
      // An event whose value moved from the aspects row to history row `value_of`.
      moved: db.prepare<[number, number]>('UPDATE change_log SET value_of = ? WHERE sequence = ? AND value_of = 0'),
      // Before a delete removes the versions events refer to, the events get their values back.
      keepValue: db.prepare<[string, number, number]>('UPDATE change_log SET value = ?, value_of = NULL WHERE sequence = ? AND value_of = ?'),
      keepName: db.prepare<[string, string, number]>('UPDATE change_log SET urn = ?, aspect = ?, aspect_id = NULL WHERE sequence = ? AND aspect_id IS NOT NULL'),
      keepPrevious: db.prepare<[string, number, number]>('UPDATE change_log SET previous_value = ?, previous_of = NULL WHERE sequence = ? AND previous_of = ?'),
      event: db.prepare(`INSERT INTO change_log (${EVENT_INSERT_COLUMNS}) VALUES (${EVENT_INSERT_COLUMNS.split(',').map(() => '?').join(', ')})`),
    };
    this.group = db.transaction((group: readonly CommitBatch[]) => {
      for (const _ of this.steps(group));
    });
  }

  /**
   * A group's statements, a unit of work (a row written, an index entry) between yields: run
   * whole inside one call (commit), or in slices that share the event loop (commitSliced).
   */
  private *steps(group: readonly CommitBatch[]): Generator<void> {
    // Read once per transaction: within it, only this writer appends to the log.
    let next = (this.stmt.lastSequence.get() ?? 0) + 1;
    for (const batch of group) {
      const index = batch.index ?? [];
      // Entity ids come from key rows, which a delete removes: read them first.
      const ids = new Map<string, number>();
      yield* this.index.entityIds(index, ids);
      // Events are numbered before the writes, which name them; a value the batch also removes is kept inline.
      const removed = new Set<string>();
      for (const w of batch.writes) if (w.kind === 'remove') removed.add(aspectKey(w.urn, w.aspect));
      const events = new PendingEvents(batch.events, next, removed);
      next += batch.events.length;
      for (const write of batch.writes) {
        this.apply(write, events);
        yield;
      }
      for (const row of events.rows) {
        this.stmt.event.run(...PendingEvents.values(row));
        yield;
      }
      // Timeseries points: an entity delete's removals first, then the points (a key's last point wins).
      for (const removal of batch.pointRemovals ?? []) this.points.removePoints(removal);
      for (const point of batch.points ?? []) {
        this.points.writePoint(point);
        yield;
      }
      yield* this.index.write(index, ids);
      yield* this.graph.write(batch.edges ?? []);
    }
    yield* this.index.writeCounts();
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
      this.index.rolledBack();
      if (group.length === 1) return [asError(error)];
      return group.map((batch) => {
        try {
          this.group.immediate([batch]);
          return undefined;
        } catch (error) {
          this.index.rolledBack();
          return asError(error);
        }
      });
    }
  }

  /**
   * The same for a large group, in slices of about SLICE_MS between which the event loop runs
   * other work: one transaction still, committed or rolled back whole. Nothing else may use the
   * connection until it settles (SqliteStore waits for it), or it would see the open transaction.
   */
  async commitSliced(group: readonly CommitBatch[]): Promise<Array<Error | undefined>> {
    try {
      await this.sliced(group);
      return group.map(() => undefined);
    } catch (error) {
      this.index.rolledBack();
      if (group.length === 1) return [asError(error)];
      const failures: Array<Error | undefined> = [];
      for (const batch of group) {
        try {
          await this.sliced([batch]);
          failures.push(undefined);
        } catch (error) {
          this.index.rolledBack();
          failures.push(asError(error));
        }
      }
      return failures;
    }
  }

  private async sliced(group: readonly CommitBatch[]): Promise<void> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const pacer = new Pacer();
      for (const _ of this.steps(group)) if (pacer.due()) await pacer.pace();
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private apply(write: AspectWrite, events: PendingEvents): void {
    const { urn, aspect, expectedVersion } = write;
    const stale = () => new StaleWriteError(`${urn} ${aspect}: expected version ${expectedVersion}`);
    switch (write.kind) {
      case 'put':
        return this.put(write, events, stale);
      case 'touch': {
        const { time, actor } = write.systemMetadata.aspectModified;
        const sm = encodeSystemMetadata(write.systemMetadata, expectedVersion, time, actor);
        if (this.stmt.touch.run(...sm, time, actor, urn, aspect, expectedVersion).changes === 0) throw stale();
        break;
      }
      case 'remove': {
        if ((this.stmt.current.get(urn, aspect)?.version ?? 0) !== expectedVersion) throw stale();
        const versions = this.stmt.versions.all({ urn, aspect });
        const byId = new Map(versions.map((v) => [v.id, v]));
        for (const v of versions) {
          if (v.event === null) continue;
          this.stmt.keepName.run(urn, aspect, v.event);
          this.stmt.keepValue.run(v.metadata, v.event, v.id ?? 0);
          const previous = v.previous_id === null ? undefined : byId.get(v.previous_id);
          if (previous) this.stmt.keepPrevious.run(previous.metadata, v.event, v.previous_id as number);
        }
        this.stmt.removeHistory.run({ urn, aspect, down_to: 0 });
        this.stmt.remove.run(urn, aspect);
        break;
      }
    }
  }

  private put(write: AspectPut, events: PendingEvents, stale: () => StaleWriteError): void {
    const { urn, aspect, expectedVersion } = write;
    const sm = write.systemMetadata;
    const value = jsonText(write.value);
    const version = Number(sm.version);
    const { time, actor } = sm.aspectModified;
    const smColumns = encodeSystemMetadata(sm, version, time, actor);
    const logged = events.claim(write, value, smColumns);
    const sequence = logged?.sequence ?? null;
    // The compare-and-set: the stored version must be the one the write was computed from.
    const current = this.stmt.latest.get(urn, aspect);
    if (expectedVersion > 0 ? current?.[LATEST.version] !== expectedVersion : current !== undefined) throw stale();
    if (current) {
      const [id, event] = [current[LATEST.id] as number, current[LATEST.event] as number | null];
      const archived = Number(this.stmt.archive.run(...current.slice(0, LATEST.id)).lastInsertRowid);
      // The event that logged the archived value now finds it in history.
      if (event !== null && !events.moved(event, archived)) this.stmt.moved.run(archived, event);
      if (logged && current[LATEST.metadata] === jsonText(logged.event.previousValue)) logged.previousOf = archived;
      this.stmt.update.run(value, ...smColumns, version, time, actor, archived, sequence, id);
      if (logged) logged.aspectId = id;
    } else {
      const { lastInsertRowid } = this.stmt.insert.run(urn, aspect, write.entityType, value, ...smColumns, version, time, actor, sequence);
      if (logged) logged.aspectId = Number(lastInsertRowid);
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
