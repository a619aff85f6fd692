import { ConflictError, PreconditionError, ValidationError } from '../errors.js';
import { jsonEqual } from '../json.js';
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
import type { IndexedChange, SearchIndexer } from '../search/indexer.js';
import { BatchState } from './batch-state.js';
import { defaultAspects } from './defaults.js';
import { KeyedLock } from './locks.js';
import { applyPatch } from './patch.js';
import type { AspectPlugins, ProposedChange, ValidationContext } from './plugins.js';
import type { AppliedChange, ClientSystemMetadata, Proposal, WriteContext } from './proposal.js';

interface ResolvedProposal {
  proposal: Proposal;
  urn: Urn;
  entity: EntitySpec;
  aspect: AspectSpec;
  key: Record<string, string>;
  ifVersionMatch?: number;
}

// Optimistic concurrency between processes: a commit that lost a race is recomputed from fresh
// state, after a short random pause so that contenders spread out.
const MAX_ATTEMPTS = 20;

/**
 * THE write path. Every mutation arrives here as proposals and runs, in order: URN and registry
 * checks, patch application, aspect mutators, schema validation, aspect validators, preconditions,
 * then one transaction that writes aspects and change-log events together.
 */
/** Told about every committed batch of changes (after the commit, never inside it). */
export type CommitListener = (events: readonly ChangeEvent[], context: WriteContext) => void;

export class Ingest {
  private readonly locks = new KeyedLock();
  private readonly listeners: CommitListener[] = [];

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly plugins: AspectPlugins = new Map(),
    /** Keeps the search index; without one, writes leave it alone (tests of the write path alone). */
    private readonly indexer?: SearchIndexer,
  ) {}

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  async ingest(proposals: readonly Proposal[], context: WriteContext): Promise<AppliedChange[]> {
    const resolved = proposals.map((p) => this.resolve(p));
    if (resolved.length === 0) return [];
    const lockKeys = resolved.map((r) => r.urn.text);
    for (const r of resolved) if (this.plugins.get(r.aspect.name)?.some((p) => p.exclusive)) lockKeys.push(`aspect:${r.aspect.name}`);
    return this.locks.run(lockKeys, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.attempt(resolved, context);
        } catch (error) {
          if (!(error instanceof StaleWriteError)) throw error;
          if (attempt >= MAX_ATTEMPTS) throw new ConflictError(`Too many concurrent writes: ${error.message}`);
          await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        }
      }
    });
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

  private async attempt(initial: readonly ResolvedProposal[], context: WriteContext): Promise<AppliedChange[]> {
    const state = new BatchState(this.store);
    const lookups = state.context(context.actor);
    const items = [...initial];
    await this.loadFor(state, items);
    const now = Date.now();
    const stamp: AuditStamp = { time: now, actor: context.actor };
    const writes: AspectWrite[] = [];
    const events: ChangeEvent[] = [];
    const results: AppliedChange[] = [];
    const writtenByBatch = new Set(items.map((i) => `${i.urn.text}\u0000${i.aspect.name}`));
    // Each aspect's value as stored and as this request leaves it: what the search index must follow.
    const indexed = new Map<string, IndexedChange>();
    const track = (item: ResolvedProposal, aspect: string, before: unknown, after: unknown) => {
      if (!this.indexer?.indexes(item.entity, aspect)) return;
      const key = `${item.urn.text}\u0000${aspect}`;
      const known = indexed.get(key);
      if (known) known.after = after;
      else indexed.set(key, { urn: item.urn.text, entity: item.entity, aspect, before, after });
    };

    const put = (item: ResolvedProposal, aspect: string, value: unknown, changeType: ChangeType, given?: ClientSystemMetadata): AppliedChange => {
      const aspects = state.aspects(item.urn.text);
      const current = aspects.get(aspect);
      const base = { urn: item.urn.text, entityType: item.entity.name, aspect };
      if (current && jsonEqual(current.value, value)) {
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
      track(item, aspect, current?.value, value);
      events.push({ ...base, changeType, created: stamp, value, previousValue: current?.value ?? null, systemMetadata });
      aspects.set(aspect, { value, systemMetadata, version });
      return { ...base, value, systemMetadata, changed: true };
    };

    const remove = (item: ResolvedProposal, aspect: string): boolean => {
      const aspects = state.aspects(item.urn.text);
      const current = aspects.get(aspect);
      if (!current) return false;
      writes.push({ kind: 'remove', urn: item.urn.text, aspect, expectedVersion: current.version });
      track(item, aspect, current.value, undefined);
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

    // Side effects may append proposals while we go; they run in this same transaction.
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const { proposal, urn, entity, aspect } = item;
      const aspects = state.aspects(urn.text);
      const current = aspects.get(aspect.name);
      const entityExists = aspects.has(entity.keyAspect.name);
      this.checkPreconditions(item, current?.version, entityExists);

      if (proposal.changeType === 'DELETE') {
        const change = this.change(item, current?.value, undefined);
        await this.validate(change, lookups);
        // Deleting the key aspect deletes the whole entity.
        const names = aspect === entity.keyAspect ? [...aspects.keys()] : [aspect.name];
        const changed = names.map((name) => remove(item, name)).some(Boolean);
        results.push({ urn: urn.text, entityType: entity.name, aspect: aspect.name, value: undefined, changed });
        if (changed) await this.expand(change, lookups, state, items);
        continue;
      }

      let value =
        proposal.changeType === 'PATCH'
          ? applyPatch(current?.value ?? structuredClone(aspect.template), proposal.patch!)
          : proposal.value;
      for (const plugin of this.plugins.get(aspect.name) ?? []) {
        if (plugin.mutate) value = await plugin.mutate(this.change(item, current?.value, value), lookups);
      }
      if (aspect === entity.keyAspect && !jsonEqual(value, item.key)) {
        throw new ValidationError(`Key aspect ${aspect.name} does not match the URN ${urn.text}`);
      }
      this.registry.validate(aspect, value);
      const change = this.change(item, current?.value, value);
      await this.validate(change, lookups);

      if (!entityExists) {
        const defaults = defaultAspects(entity, item.key);
        await state.load([urn.text], defaults.map(([name]) => name));
        put(item, entity.keyAspect.name, item.key, 'UPSERT');
        for (const [name, defaultValue] of defaults) {
          if (!aspects.has(name) && !writtenByBatch.has(`${urn.text}\u0000${name}`)) put(item, name, defaultValue, 'UPSERT');
        }
      }
      results.push(put(item, aspect.name, value, proposal.changeType, proposal.systemMetadata));
      await this.expand(change, lookups, state, items);
    }

    const index = this.indexer ? await this.indexer.writes([...indexed.values()], lookups, this.store) : [];
    await this.store.commit({ writes, events, index });
    if (events.length > 0) for (const listener of this.listeners) listener(events, context);
    return results.slice(0, initial.length);
  }

  private checkPreconditions(item: ResolvedProposal, currentVersion: number | undefined, entityExists: boolean): void {
    const { proposal, urn, aspect } = item;
    if (item.ifVersionMatch !== undefined) {
      const actual = currentVersion ?? -1;
      if (actual !== item.ifVersionMatch) {
        throw new PreconditionError(
          `Expected version ${item.ifVersionMatch}, actual version ${actual} for aspect ${aspect.name} of ${urn.text}`,
        );
      }
    }
    if (proposal.changeType === 'CREATE' && currentVersion !== undefined) {
      throw new ConflictError(`Cannot perform CREATE since the aspect ${aspect.name} of ${urn.text} already exists`);
    }
    if (proposal.changeType === 'CREATE_ENTITY' && entityExists) {
      throw new ConflictError(`Cannot perform CREATE_ENTITY since the entity ${urn.text} already exists`);
    }
  }

  private change(item: ResolvedProposal, previous: unknown, value: unknown): ProposedChange {
    return { urn: item.urn, entity: item.entity, aspect: item.aspect, changeType: item.proposal.changeType, previous, value };
  }

  /** Runs the aspect's validators; the first error rejects the whole request. */
  private async validate(change: ProposedChange, lookups: ValidationContext): Promise<void> {
    for (const plugin of this.plugins.get(change.aspect.name) ?? []) {
      if (!plugin.validate) continue;
      const errors = await plugin.validate(change, lookups);
      if (errors.length > 0) throw errors[0];
    }
  }

  /** Appends the proposals that the change's side effects imply, with their state loaded. */
  private async expand(change: ProposedChange, lookups: ValidationContext, state: BatchState, items: ResolvedProposal[]): Promise<void> {
    const added: ResolvedProposal[] = [];
    for (const plugin of this.plugins.get(change.aspect.name) ?? []) {
      if (plugin.sideEffects) added.push(...(await plugin.sideEffects(change, lookups)).map((p) => this.resolve(p)));
    }
    if (added.length === 0) return;
    await this.loadFor(state, added);
    items.push(...added);
  }

  /** Loads what the proposals touch: their aspects and keys (everything for entity deletes). */
  private async loadFor(state: BatchState, items: readonly ResolvedProposal[]): Promise<void> {
    const whole = items.filter((i) => i.proposal.changeType === 'DELETE' && i.aspect === i.entity.keyAspect);
    if (whole.length > 0) await state.load([...new Set(whole.map((i) => i.urn.text))]);
    const names = new Set<string>();
    for (const item of items) names.add(item.aspect.name).add(item.entity.keyAspect.name);
    await state.load([...new Set(items.map((i) => i.urn.text))], [...names]);
  }
}
