import type { ChangeType } from '../store/store.js';
import type { PatchDocument } from './patch.js';

/** One requested aspect change: what every write in urnbase becomes before it reaches ingest. */
export interface Proposal {
  urn: string;
  /** Aspect name as the client spelled it (canonical or all-lowercase). */
  aspect: string;
  changeType: ChangeType;
  /** The new value, for UPSERT / CREATE / CREATE_ENTITY. */
  value?: unknown;
  /** The patch, for PATCH. */
  patch?: PatchDocument;
  /** Conditional write: the aspect's current systemMetadata.version must equal this (-1 = absent). */
  ifVersionMatch?: string;
  /**
   * `*` on a CREATE or CREATE_ENTITY: when what it would create exists, the proposal writes
   * nothing and the request goes on (DataHub drops such a write instead of refusing it).
   */
  ifNoneMatch?: string;
  /** Client-supplied system metadata; the server owns version and audit stamps. */
  systemMetadata?: ClientSystemMetadata;
  /** Who the change is attributed to when not the request's actor: a metadata test's actions name the test. */
  actor?: string;
  /**
   * Where the request carried it (`entities[2].value.….aspects[0]`): a refusal of its value then
   * names that place, so a client finds the bad item of a large batch.
   */
  where?: string;
}

export interface ClientSystemMetadata {
  runId?: string;
  lastObserved?: number;
  properties?: Record<string, string>;
}

/** Who writes, and through which door. */
export interface WriteContext {
  actor: string;
  /** Recorded as systemMetadata.properties.eventSource. */
  source: string;
  /** The writer may make irreversible changes to the catalog (a structured property's hard delete): an admin. */
  admin?: boolean;
}

/** The source of urnbase's own writes (bootstrap): the only writer of built-in entities. */
export const SYSTEM_SOURCE = 'SYSTEM';

/** The outcome of one proposal. */
export interface AppliedChange {
  urn: string;
  entityType: string;
  aspect: string;
  /** The aspect value after the change; undefined when the change deleted it. */
  value: unknown;
  /** A timeseries point's is PointMetadata (no version). */
  systemMetadata?: import('../store/store.js').SystemMetadata | import('../store/store.js').PointMetadata;
  /** False when the write matched the stored value (or deleted something absent). */
  changed: boolean;
  /** When this change created its entity: the key and default aspects written with it. */
  created?: AppliedChange[];
}
