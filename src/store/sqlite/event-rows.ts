import { jsonText } from '../../json.js';
import type { AspectPut, ChangeEvent, SystemMetadata } from '../store.js';
import { encodeSystemMetadata, type SmValues } from './system-metadata.js';

/**
 * A batch's change-log events, as rows, before they are inserted (after the batch's aspect
 * writes). An event whose value is a version the batch writes does not repeat it: `value_of` 0
 * says "the aspects row whose `event` is this sequence", and once that value is replaced,
 * SqliteWriter points the event at the history row it moved to (`value_of` = its id). The
 * previous value likewise names the history row it was archived to (`previous_of`), and its urn
 * and aspect are those of the aspects row (`aspect_id`; the columns hold ''). Anything
 * else (a DELETE's previous value, which the delete removes; values a batch both writes and
 * removes) is kept inline, as before.
 */
export interface EventRow {
  sequence: number;
  event: ChangeEvent;
  valueOf: number | null;
  previousOf: number | null;
  /** The aspects row of the put it logs: its urn and aspect are read from there. */
  aspectId: number | null;
  /** The put's system metadata columns, when the event's are the same (the same object, stamped alike). */
  smColumns?: [string, ...SmValues];
}

export class PendingEvents {
  readonly rows: EventRow[];
  /** Events that log a put, by urn, aspect and the version written. */
  private readonly byVersion = new Map<string, EventRow>();

  constructor(events: readonly ChangeEvent[], readonly first: number, removed: ReadonlySet<string>) {
    this.rows = events.map((event, i) => ({ sequence: first + i, event, valueOf: null, previousOf: null, aspectId: null }));
    for (const row of this.rows) {
      const { urn, aspect, changeType, systemMetadata } = row.event;
      // A timeseries point's event (metadata without a version) keeps its value inline.
      if (changeType === 'DELETE' || !systemMetadata?.version || removed.has(aspectKey(urn, aspect))) continue;
      const key = `${aspectKey(urn, aspect)}\u0000${systemMetadata.version}`;
      if (!this.byVersion.has(key)) this.byVersion.set(key, row);
    }
  }

  /** The event that logs this put (the same value, the version it writes), if any: it will refer to the aspects row. */
  claim(put: AspectPut, text: string, smColumns: [string, ...SmValues]): EventRow | undefined {
    const key = `${aspectKey(put.urn, put.aspect)}\u0000${put.systemMetadata.version}`;
    const row = this.byVersion.get(key);
    if (!row || !(row.event.value === put.value || jsonText(row.event.value) === text)) return undefined;
    this.byVersion.delete(key);
    row.valueOf = 0;
    const { event } = row;
    const modified = put.systemMetadata.aspectModified;
    if (event.systemMetadata === put.systemMetadata && event.created.time === modified.time && event.created.actor === modified.actor) row.smColumns = smColumns;
    return row;
  }

  /** An event of this batch whose value just moved to history row `id`. */
  moved(sequence: number, id: number): boolean {
    const row = this.rows[sequence - this.first];
    if (!row || row.valueOf !== 0) return false;
    row.valueOf = id;
    return true;
  }

  /** The values of INSERT INTO change_log (EVENT_INSERT_COLUMNS). */
  static values(row: EventRow): unknown[] {
    const e = row.event;
    const sm = e.systemMetadata;
    let version: number | null = null;
    let smColumns: [string | null, ...SmValues] = [null, null, null, null, null, null];
    if (sm?.version !== undefined) {
      smColumns = row.smColumns ?? encodeSystemMetadata(sm as SystemMetadata, Number(sm.version), e.created.time, e.created.actor);
      if (smColumns[0] === '') version = Number(sm.version);
    } else if (sm) {
      smColumns = [jsonText(sm), null, null, null, null, null];
    }
    const named = row.aspectId !== null;
    return [
      row.sequence,
      named ? '' : e.urn,
      e.entityType,
      named ? '' : e.aspect,
      e.changeType,
      e.created.time,
      e.created.actor,
      row.valueOf === null ? nullable(e.value) : null,
      row.valueOf,
      row.previousOf === null ? nullable(e.previousValue) : null,
      row.previousOf,
      version,
      ...smColumns,
      row.aspectId,
    ];
  }
}

export const EVENT_INSERT_COLUMNS =
  'sequence, urn, entity_type, aspect, change_type, created_on, created_by, value, value_of, previous_value, previous_of, version, system_metadata, sm_observed, sm_run, sm_source, sm_created_on, sm_created_by, aspect_id';

export function aspectKey(urn: string, aspect: string): string {
  return `${urn}\u0000${aspect}`;
}

function nullable(value: unknown): string | null {
  return value === undefined || value === null ? null : jsonText(value);
}
