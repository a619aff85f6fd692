import type { DomainError } from '../errors.js';
import type { AspectSpec, EntitySpec } from '../registry/registry.js';
import type { ChangeType } from '../store/store.js';
import type { Urn } from '../urn/urn.js';
import type { Proposal } from './proposal.js';

/** What a plugin sees: one aspect change, before it is committed. */
export interface ProposedChange {
  urn: Urn;
  entity: EntitySpec;
  aspect: AspectSpec;
  changeType: ChangeType;
  /** The stored value before the change (undefined when absent). */
  previous: unknown;
  /** The value after the change (undefined for a delete). */
  value: unknown;
}

/**
 * Batched, cached lookups for plugins. Values are the latest ones as this request leaves them so
 * far: earlier changes of the same batch are visible.
 */
export interface ValidationContext {
  actor: string;
  /** The writer is an admin (WriteContext.admin). */
  admin: boolean;
  get(urn: string, aspect: string): Promise<unknown>;
  getMany(urns: readonly string[], aspect: string): Promise<Map<string, unknown>>;
  /** Every entity that has the aspect, with its latest value. */
  scan(aspect: string): AsyncIterable<{ urn: string; value: unknown }>;
}

/**
 * Rules and effects for one aspect, plugged into the write path so that every way of writing
 * (POST, batch, PATCH, test actions, cascades) runs them the same way.
 */
export interface AspectPlugin {
  /** Adjusts the value about to be written: after patching, before schema validation. */
  mutate?(change: ProposedChange, context: ValidationContext): unknown | Promise<unknown>;
  /** Returns the rules the change breaks; any error rejects the whole request. */
  validate?(change: ProposedChange, context: ValidationContext): DomainError[] | Promise<DomainError[]>;
  /** Further changes this one implies (e.g. a hard-delete cascade), committed in the same transaction. */
  sideEffects?(change: ProposedChange, context: ValidationContext): Proposal[] | Promise<Proposal[]>;
  /**
   * The rules look across entities (uniqueness in the catalog), so writes of this aspect are
   * serialised within the process.
   */
  exclusive?: boolean;
  /**
   * Other aspects of the same entity the rules read through the context: loaded with the
   * proposal's own aspects, in one store read for the whole request rather than one per proposal.
   */
  reads?: readonly string[];
}

export type AspectPlugins = ReadonlyMap<string, readonly AspectPlugin[]>;
