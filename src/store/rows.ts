import type { ChangeType, LoggedEvent, PointMetadata, StoredAspect, StoredPoint, SystemMetadata } from './store.js';

/**
 * The rows both stores read aspects and change-log events from, and how they become the store's
 * values. PostgreSQL's tables have these columns; SQLite's are compact (system metadata in
 * columns, events that refer to versions) and its queries rebuild these rows from them. pg
 * returns BIGINT columns as strings (to lose no precision), hence `number | string` and the Number()s.
 */

/** Latest rows read as storage version 0 (history rows keep their own version); PostgreSQL's columns. */
export const LATEST_COLUMNS = 'urn, aspect, 0 AS version, metadata, system_metadata';

export const EVENT_COLUMNS = 'sequence, urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata';

export interface AspectRow {
  urn: string;
  aspect: string;
  version: number | string;
  metadata: string;
  system_metadata: string;
}

/** A stored row; its system metadata is parsed only when someone reads it: most reads answer the value alone. */
export class RowAspect implements StoredAspect {
  readonly value: unknown;
  /** The length of its JSON, which is what SQLite's latest-value cache counts. */
  readonly size: number;
  private parsedSystemMetadata?: SystemMetadata;

  constructor(
    readonly urn: string,
    readonly aspect: string,
    readonly version: number,
    metadata: string,
    private readonly systemMetadataText: string,
  ) {
    this.value = JSON.parse(metadata);
    this.size = metadata.length + systemMetadataText.length;
  }

  get systemMetadata(): SystemMetadata {
    return (this.parsedSystemMetadata ??= JSON.parse(this.systemMetadataText) as SystemMetadata);
  }
}

export function toStored(row: AspectRow): RowAspect {
  return new RowAspect(row.urn, row.aspect, Number(row.version), row.metadata, row.system_metadata);
}

export interface EventRow {
  sequence: number | string;
  urn: string;
  entity_type: string;
  aspect: string;
  change_type: ChangeType;
  created_on: number | string;
  created_by: string;
  value: string | null;
  previous_value: string | null;
  system_metadata: string | null;
}

export function toEvent(row: EventRow): LoggedEvent {
  const json = (text: string | null) => (text === null ? null : JSON.parse(text));
  return {
    sequence: Number(row.sequence),
    urn: row.urn,
    entityType: row.entity_type,
    aspect: row.aspect,
    changeType: row.change_type,
    created: { time: Number(row.created_on), actor: row.created_by },
    value: json(row.value),
    previousValue: json(row.previous_value),
    systemMetadata: json(row.system_metadata),
  };
}

/** A timeseries point as both stores read it. */
export interface PointRow {
  id: number | string;
  urn: string;
  aspect: string;
  timestamp_millis: number | string;
  point_key: string;
  value: string;
  system_metadata: string;
  created_on: number | string;
  created_by: string;
}

export function toPoint(row: PointRow): StoredPoint {
  return {
    id: Number(row.id),
    urn: row.urn,
    aspect: row.aspect,
    timestampMillis: Number(row.timestamp_millis),
    key: row.point_key,
    value: JSON.parse(row.value),
    systemMetadata: JSON.parse(row.system_metadata) as PointMetadata,
    written: { time: Number(row.created_on), actor: row.created_by },
    size: row.value.length,
  };
}
