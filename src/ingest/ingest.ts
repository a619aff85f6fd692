import { isDeepStrictEqual } from 'node:util';
import { ConflictError, PreconditionError, ValidationError } from '../errors.js';
import type { AspectSpec, EntitySpec, Registry } from '../registry/registry.js';
import {
  StaleWriteError,
  type AspectWrite,
  type AuditStamp,
  type ChangeEvent,
  type ChangeType,
  type Store,
  type SystemMetadata,
} from '../store/store.js';
import { parseUrn, type Urn } from '../urn/urn.js';
import { defaultAspects } from './defaults.js';
import { KeyedLock } from './locks.js';
import { applyPatch } from './patch.js';
import type { AppliedChange, ClientSystemMetadata, Proposal, WriteContext } from './proposal.js';

/** What an aspect validator sees: one change, before it is committed. */
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

export interface ValidationContext {
  actor: string;
}

/** A rule for one aspect, plugged into the write path (e.g. structured property values). */
export type AspectValidator = (
  change: ProposedChange,
  context: ValidationContext,
) => ValidationError[] | Promise<ValidationError[]>;

interface ResolvedProposal {
  proposal: Proposal;
  urn: Urn;
  entity: EntitySpec;
  aspect: AspectSpec;
  key: Record<string, string>;
  ifVersionMatch?: number;
}

interface CurrentAspect {
  value: unknown;
  systemMetadata: SystemMetadata;
  /** systemMetadata.version as a number. */
  version: number;
}

// Optimistic concurrency between processes: a commit that lost a race is recomputed from fresh
// state, after a short random pause so that contenders spread out.
const MAX_ATTEMPTS = 20;

/**
 * THE write path. Every mutation arrives here as proposals and runs, in order: URN and registry
 * checks, patch application, schema validation, aspect validators, preconditions, then one
 * transaction that writes aspects and change-log events together.
 */
export class Ingest {
  private readonly locks = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly validators: ReadonlyMap<string, readonly AspectValidator[]> = new Map(),
  ) {}

  async ingest(proposals: readonly Proposal[], context: WriteContext): Promise<AppliedChange[]> {
    const resolved = proposals.map((p) => this.resolve(p));
    if (resolved.length === 0) return [];
    return this.locks.run(
      resolved.map((r) => r.urn.text),
      async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.attempt(resolved, context);
          } catch (error) {
            if (!(error instanceof StaleWriteError)) throw error;
            if (attempt >= MAX_ATTEMPTS) throw new ConflictError(`Too many concurrent writes: ${error.message}`);
            await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
          }
        }
      },
    );
  }

  /** URN, entity type, key and aspect checks: everything that does not need stored state. */
  private resolve(proposal: Proposal): ResolvedProposal {
    const urn = parseUrn(proposal.urn);
    const entity = this.registry.entityOf(urn);
    const key = this.registry.keyOf(urn, entity);
    const aspect = this.registry.aspectOf(entity, proposal.aspect);
    if (!aspect) throw new ValidationError(`Unknown aspect ${proposal.aspect} for entity type ${entity.name}`);
    if (proposal.changeType === 'PATCH' && !proposal.patch) throw new ValidationError('A PATCH needs a patch document');
    if (proposal.changeType !== 'PATCH' && proposal.changeType !== 'DELETE' && proposal.value === undefined) {
      throw new ValidationError(`Missing value for aspect ${aspect.name}`);
    }
    let ifVersionMatch: number | undefined;
    if (proposal.ifVersionMatch !== undefined) {
      if (!/^-?\d+$/.test(proposal.ifVersionMatch.trim())) {
        throw new ValidationError(`If-Version-Match must be an integer, got ${JSON.stringify(proposal.ifVersionMatch)}`);
      }
      ifVersionMatch = Number(proposal.ifVersionMatch);
    }
    return { proposal, urn, entity, aspect, key, ifVersionMatch };
  }

  private async attempt(items: readonly ResolvedProposal[], context: WriteContext): Promise<AppliedChange[]> {
    const state = await this.load(items);
    const now = Date.now();
    const stamp: AuditStamp = { time: now, actor: context.actor };
    const writes: AspectWrite[] = [];
    const events: ChangeEvent[] = [];
    const results: AppliedChange[] = [];
    const writtenByBatch = new Set(items.map((i) => `${i.urn.text}\u0000${i.aspect.name}`));

    const put = (item: ResolvedProposal, aspect: string, value: unknown, changeType: ChangeType, given?: ClientSystemMetadata): AppliedChange => {
      const aspects = state.get(item.urn.text)!;
      const current = aspects.get(aspect);
      const base = { urn: item.urn.text, entityType: item.entity.name, aspect };
      if (current && isDeepStrictEqual(current.value, value)) {
        const systemMetadata: SystemMetadata = {
          ...current.systemMetadata,
          lastObserved: given?.lastObserved ?? now,
          ...(given?.runId !== undefined ? { runId: given.runId } : {}),
        };
        writes.push({ kind: 'touch', urn: item.urn.text, aspect, systemMetadata, expectedVersion: current.version });
        aspects.set(aspect, { ...current, systemMetadata });
        return { ...base, value, systemMetadata, changed: false };
      }
      const version = (current?.version ?? 0) + 1;
      const systemMetadata: SystemMetadata = {
        version: String(version),
        lastObserved: given?.lastObserved ?? now,
        ...(given?.runId !== undefined ? { runId: given.runId } : {}),
        properties: { ...given?.properties, eventSource: context.source },
        aspectCreated: current?.systemMetadata.aspectCreated ?? stamp,
        aspectModified: stamp,
      };
      writes.push({ kind: 'put', ...base, value, systemMetadata, expectedVersion: current?.version ?? 0 });
      events.push({ ...base, changeType, created: stamp, value, previousValue: current?.value ?? null, systemMetadata });
      aspects.set(aspect, { value, systemMetadata, version });
      return { ...base, value, systemMetadata, changed: true };
    };

    const remove = (item: ResolvedProposal, aspect: string): boolean => {
      const aspects = state.get(item.urn.text)!;
      const current = aspects.get(aspect);
      if (!current) return false;
      writes.push({ kind: 'remove', urn: item.urn.text, aspect, expectedVersion: current.version });
      events.push({
        urn: item.urn.text,
        entityType: item.entity.name,
        aspect,
        changeType: 'DELETE',
        created: stamp,
        value: null,
        previousValue: current.value,
        systemMetadata: null,
      });
      aspects.delete(aspect);
      return true;
    };

    for (const item of items) {
      const { proposal, urn, entity, aspect } = item;
      const aspects = state.get(urn.text)!;
      const current = aspects.get(aspect.name);
      const entityExists = aspects.has(entity.keyAspect.name);

      if (item.ifVersionMatch !== undefined) {
        const actual = current?.version ?? -1;
        if (actual !== item.ifVersionMatch) {
          throw new PreconditionError(
            `Expected version ${item.ifVersionMatch}, actual version ${actual} for aspect ${aspect.name} of ${urn.text}`,
          );
        }
      }
      if (proposal.changeType === 'CREATE' && current) {
        throw new ConflictError(`Cannot perform CREATE since the aspect ${aspect.name} of ${urn.text} already exists`);
      }
      if (proposal.changeType === 'CREATE_ENTITY' && entityExists) {
        throw new ConflictError(`Cannot perform CREATE_ENTITY since the entity ${urn.text} already exists`);
      }

      if (proposal.changeType === 'DELETE') {
        await this.check(item, current?.value, undefined, context);
        // Deleting the key aspect deletes the whole entity.
        const names = aspect === entity.keyAspect ? [...aspects.keys()] : [aspect.name];
        const changed = names.map((name) => remove(item, name)).some(Boolean);
        results.push({ urn: urn.text, entityType: entity.name, aspect: aspect.name, value: undefined, changed });
        continue;
      }

      const value =
        proposal.changeType === 'PATCH'
          ? applyPatch(current?.value ?? structuredClone(aspect.template), proposal.patch!)
          : proposal.value;
      if (aspect === entity.keyAspect && !isDeepStrictEqual(value, item.key)) {
        throw new ValidationError(`Key aspect ${aspect.name} does not match the URN ${urn.text}`);
      }
      this.registry.validate(aspect, value);
      await this.check(item, current?.value, value, context);

      if (!entityExists) {
        put(item, entity.keyAspect.name, item.key, 'UPSERT');
        for (const [name, defaultValue] of defaultAspects(entity, item.key)) {
          if (!aspects.has(name) && !writtenByBatch.has(`${urn.text}\u0000${name}`)) put(item, name, defaultValue, 'UPSERT');
        }
      }
      results.push(put(item, aspect.name, value, proposal.changeType, proposal.systemMetadata));
    }

    await this.store.commit({ writes, events });
    return results;
  }

  /** Runs the aspect's validators; the first failure rejects the whole request. */
  private async check(item: ResolvedProposal, previous: unknown, value: unknown, context: WriteContext): Promise<void> {
    const validators = this.validators.get(item.aspect.name);
    if (!validators) return;
    const change: ProposedChange = {
      urn: item.urn,
      entity: item.entity,
      aspect: item.aspect,
      changeType: item.proposal.changeType,
      previous,
      value,
    };
    for (const validate of validators) {
      const errors = await validate(change, { actor: context.actor });
      if (errors.length > 0) throw errors[0];
    }
  }

  /** Latest stored values of every aspect the batch touches, per URN. */
  private async load(items: readonly ResolvedProposal[]): Promise<Map<string, Map<string, CurrentAspect>>> {
    const urns = [...new Set(items.map((i) => i.urn.text))];
    const deletesEntity = items.some((i) => i.proposal.changeType === 'DELETE' && i.aspect === i.entity.keyAspect);
    let names: string[] | undefined;
    if (!deletesEntity) {
      const set = new Set<string>();
      for (const item of items) {
        set.add(item.aspect.name).add(item.entity.keyAspect.name);
        for (const [name] of defaultAspects(item.entity, item.key)) set.add(name);
      }
      names = [...set];
    }
    const rows = await this.store.getLatestMany(urns, names);
    const state = new Map(urns.map((u) => [u, new Map<string, CurrentAspect>()]));
    for (const row of rows) {
      state.get(row.urn)!.set(row.aspect, {
        value: row.value,
        systemMetadata: row.systemMetadata,
        version: Number(row.systemMetadata.version),
      });
    }
    return state;
  }
}
