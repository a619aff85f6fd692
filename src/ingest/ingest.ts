import { ConflictError, ForbiddenError, PreconditionError, TooLargeError, ValidationError } from '../errors.js';
import { LIMITS, quoted } from '../limits.js';
import { Pacer } from '../pace.js';
import { jsonEqual, jsonText } from '../json.js';
import type { AspectSpec, EntitySpec, Registry } from '../registry/registry.js';
import type { GraphEdges } from '../graph/edges.js';
import type { SearchIndexer } from '../search/indexer.js';
import { StaleWriteError, type ChangeEvent, type Store } from '../store/store.js';
import { parseUrn, type Urn } from '../urn/urn.js';
import { BatchState } from './batch-state.js';
import { defaultAspectNames, defaultAspects } from './defaults.js';
import { KeyedLock } from './locks.js';
import { applyPatch } from './patch.js';
import { pointPlace } from './point-key.js';
import { PendingCommit, type ChangedEntity } from './pending-commit.js';
import type { AspectPlugins, ProposedChange, ValidationContext } from './plugins.js';
import { SYSTEM_SOURCE, type AppliedChange, type Proposal, type WriteContext } from './proposal.js';

interface ResolvedProposal {
  proposal: Proposal;
  urn: Urn;
  entity: EntitySpec;
  aspect: AspectSpec;
  key: Record<string, string>;
  ifVersionMatch?: number;
}

/** What one attempt at a request works with. */
interface Attempt {
  state: BatchState;
  lookups: ValidationContext;
  pending: PendingCommit;
  /** The request's proposals; side effects append theirs while they are worked through. */
  items: ResolvedProposal[];
  context: WriteContext;
  /** The aspects the request itself writes (urn NUL aspect): a new entity's defaults leave them alone. */
  requested: ReadonlySet<string>;
}

/**
 * Refuses a request of more than LIMITS.proposals aspect changes. Routes call it while they turn
 * a body into proposals (with `more`: the count so far, the rest not counted), so that a body of
 * 50,000 entities is refused before it is all worked through.
 */
export function checkProposalCount(count: number, more = false): void {
  if (count <= LIMITS.proposals) return;
  const carried = more ? 'more' : count.toLocaleString('en-US');
  throw new TooLargeError(`A write request may carry at most ${LIMITS.proposals.toLocaleString('en-US')} aspect changes; this one carries ${carried}. Split it into smaller requests`);
}

/** The most JSON characters of new aspect values one request may write, unless told otherwise. */
export const DEFAULT_MAX_WRITE_CHARS = 64 * 2 ** 20;

// Optimistic concurrency between processes: a commit that lost a race is recomputed from fresh
// state, after a short random pause so that contenders spread out.
const MAX_ATTEMPTS = 20;

/** Told about every committed batch of changes (after the commit, never inside it). */
export type CommitListener = (events: readonly ChangeEvent[], context: WriteContext) => void;

/**
 * Work a commit implies that cannot be in its transaction (it needs the committed search index),
 * awaited before the write answers, so a client reads what follows from its write: a form's
 * filter that an asset now matches. It writes through ingest again, in a transaction of its own.
 */
export type CommitFollower = (events: readonly ChangeEvent[], context: WriteContext) => Promise<void>;

/**
 * THE write path. Every mutation arrives here as proposals, and each runs, in order: URN and
 * registry checks (resolve), preconditions, patch application and aspect mutators (valueToWrite),
 * key and schema validation (checkSchema), aspect validators (validate), entity creation, side
 * effects (expand); then one transaction writes aspects, index rows and change-log events together.
 */
export class Ingest {
  private readonly locks = new KeyedLock();
  private readonly listeners: CommitListener[] = [];
  private readonly followers: CommitFollower[] = [];
  private followerFailed: (error: unknown) => void = (error) => process.emitWarning(`A commit follower failed: ${String(error)}`);

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly plugins: AspectPlugins = new Map(),
    /** Keeps the search index; without one, writes leave it alone (tests of the write path alone). */
    private readonly indexer?: SearchIndexer,
    /** The most JSON characters of new aspect values one request may write (PendingCommit). */
    private readonly maxWriteChars = DEFAULT_MAX_WRITE_CHARS,
    /** Keeps the graph's edges; without one, writes leave them alone. */
    private readonly graph?: GraphEdges,
  ) {}

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  followCommits(follower: CommitFollower): void {
    this.followers.push(follower);
  }

  /** Where a follower's failure goes: the write it follows has committed, so it is not the client's. */
  onFollowerError(handler: (error: unknown) => void): void {
    this.followerFailed = handler;
  }

  async ingest(proposals: readonly Proposal[], context: WriteContext): Promise<AppliedChange[]> {
    checkProposalCount(proposals.length);
    const resolved: ResolvedProposal[] = [];
    const pacer = new Pacer();
    for (const proposal of proposals) {
      resolved.push(located(proposal, () => this.resolve(proposal, context)));
      await pacer.pace();
    }
    if (resolved.length === 0) return [];
    const lockKeys = resolved.map((r) => r.urn.text);
    for (const r of resolved) if (this.plugins.get(r.aspect.name)?.some((p) => p.exclusive)) lockKeys.push(`aspect:${r.aspect.name}`);
    const done = await this.locks.run(lockKeys, async () => {
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
    // Outside the locks: followers write again, to entities this request may hold.
    // The request has committed: a follower that fails is logged, and the write still answers 2xx.
    if (done.events.length > 0) {
      for (const follower of this.followers) {
        try {
          await follower(done.events, context);
        } catch (error) {
          this.followerFailed(error);
        }
      }
    }
    return done.results;
  }

  /**
   * Deletes an entity's timeseries points, of the named aspects (all when omitted), between start
   * and end inclusive (unbounded when omitted); returns how many went. Points are not versions: no
   * change-log event, as DataHub's delete of timeseries values logs none.
   */
  async deletePoints(urnText: string, aspects: readonly string[] | undefined, start: number | undefined, end: number | undefined, context: WriteContext): Promise<number> {
    const urn = parseUrn(urnText);
    this.registry.entityOf(urn);
    if (context.source !== SYSTEM_SOURCE && this.registry.isBuiltIn(urn)) {
      throw new ForbiddenError(`${urn.text} is built in: urnbase writes it itself, and it cannot be changed or deleted`);
    }
    return this.locks.run([urn.text], () => this.store.deletePoints({ urn: urn.text, ...(aspects ? { aspects } : {}), ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) }));
  }

  /** URN, entity type, key and aspect checks: everything that does not need stored state. */
  private resolve(proposal: Proposal, context: WriteContext): ResolvedProposal {
    const urn = parseUrn(proposal.urn);
    const entity = this.registry.entityOf(urn);
    if (context.source !== SYSTEM_SOURCE && this.registry.isBuiltIn(urn)) {
      throw new ForbiddenError(`${urn.text} is built in: urnbase writes it itself, and it cannot be changed or deleted`);
    }
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
        throw new ValidationError(`If-Version-Match must be an integer, got ${quoted(proposal.ifVersionMatch)}`);
      }
      ifVersionMatch = Number(proposal.ifVersionMatch);
    }
    return { proposal, urn, entity, aspect, key, ifVersionMatch };
  }

  /**
   * One try at the whole request. Each proposal, side effects' included, runs the stages in
   * apply(); then everything is committed in ONE transaction. A lost race (StaleWriteError) sends
   * ingest() round again, from fresh state.
   */
  private async attempt(initial: readonly ResolvedProposal[], context: WriteContext): Promise<{ results: AppliedChange[]; events: readonly ChangeEvent[] }> {
    const state = new BatchState(this.store);
    const items = [...initial];
    await this.loadFor(state, items);
    const run: Attempt = {
      state,
      lookups: state.context(context),
      pending: new PendingCommit(state, context, Date.now(), this.maxWriteChars, this.indexer, this.graph),
      items,
      context,
      requested: new Set(items.map((i) => aspectKey(i.urn.text, i.aspect.name))),
    };
    const results: AppliedChange[] = [];
    const pacer = new Pacer();
    // Side effects may append proposals while we go; they run in this same transaction.
    for (let i = 0; i < items.length; i++) {
      results.push(await locatedAsync(items[i].proposal, () => this.apply(items[i], run)));
      await pacer.pace();
    }
    await this.commit(run, context);
    return { results: results.slice(0, initial.length), events: run.pending.events };
  }

  /** One proposal's stages, in order, ending in its changes to the pending commit. */
  private async apply(item: ResolvedProposal, run: Attempt): Promise<AppliedChange> {
    const aspects = run.state.aspects(item.urn.text);
    const current = aspects.get(item.aspect.name);
    const entityExists = aspects.has(item.entity.keyAspect.name);
    if (this.checkPreconditions(item, current?.version, entityExists) === 'drop') {
      const { urn, entity, aspect } = item;
      return { urn: urn.text, entityType: entity.name, aspect: aspect.name, value: current?.value, systemMetadata: current?.systemMetadata, changed: false };
    }
    if (item.proposal.changeType === 'DELETE') return this.delete(item, current?.value, run);
    if (item.aspect.kind === 'timeseries') return this.writePoint(item, entityExists, run);

    const value = await this.valueToWrite(item, current?.value, run.lookups);
    this.indexer?.checkSize(item.urn.text, item.entity, item.aspect.name, value);
    await this.checkSchema(item, value);
    const change = this.change(item, current?.value, value);
    await this.validate(change, run.lookups);
    const created = entityExists ? undefined : await this.createEntity(item, run);
    const result = run.pending.put(changed(item), item.aspect.name, value, item.proposal.changeType, item.proposal.systemMetadata);
    await this.expand(change, run);
    return created ? { ...result, created } : result;
  }

  /**
   * If-Version-Match, CREATE and CREATE_ENTITY, against the state as the request leaves it so far.
   * A CREATE that finds what it would create is refused, or dropped (`drop`) under If-None-Match: *.
   */
  private checkPreconditions(item: ResolvedProposal, currentVersion: number | undefined, entityExists: boolean): 'write' | 'drop' {
    const { proposal, urn, aspect } = item;
    if (item.ifVersionMatch !== undefined) {
      const actual = currentVersion ?? -1;
      if (actual !== item.ifVersionMatch) {
        throw new PreconditionError(
          `Expected version ${item.ifVersionMatch}, actual version ${actual} for aspect ${aspect.name} of ${urn.text}`,
        );
      }
    }
    const drops = proposal.ifNoneMatch?.trim() === '*';
    if (proposal.changeType === 'CREATE' && currentVersion !== undefined) {
      if (drops) return 'drop';
      throw new ConflictError(`Cannot perform CREATE since the aspect ${aspect.name} of ${urn.text} already exists`);
    }
    if (proposal.changeType === 'CREATE_ENTITY' && entityExists) {
      if (drops) return 'drop';
      throw new ConflictError(`Cannot perform CREATE_ENTITY since the entity ${urn.text} already exists`);
    }
    return 'write';
  }

  /**
   * A timeseries point: no version, no patch, nothing to compare with; validated like any value,
   * then appended (a point with the same key replaces the stored one).
   */
  private async writePoint(item: ResolvedProposal, entityExists: boolean, run: Attempt): Promise<AppliedChange> {
    const { proposal, aspect } = item;
    if (proposal.changeType === 'PATCH') {
      throw new ValidationError(`${aspect.name} is a timeseries aspect: its points cannot be patched (DataHub refuses it too); send the whole point with UPSERT`);
    }
    const value = await this.valueToWrite(item, undefined, run.lookups);
    const place = pointPlace(aspect.name, value);
    await this.checkSchema(item, value);
    await this.validate(this.change(item, undefined, value), run.lookups);
    const created = entityExists ? undefined : await this.createEntity(item, run);
    const result = run.pending.point(changed(item), aspect.name, value, place, proposal.systemMetadata);
    return created ? { ...result, created } : result;
  }

  /** A DELETE: validated, then removed. Deleting the key aspect deletes the whole entity. */
  private async delete(item: ResolvedProposal, previous: unknown, run: Attempt): Promise<AppliedChange> {
    const { urn, entity, aspect } = item;
    const change = this.change(item, previous, undefined);
    await this.validate(change, run.lookups);
    if (aspect.kind === 'timeseries') return this.deleteLatestPoint(item, run);
    const names = aspect === entity.keyAspect ? [...run.state.aspects(urn.text).keys()] : [aspect.name];
    const removed = names.map((name) => run.pending.remove(changed(item), name)).some(Boolean);
    // An entity goes with its timeseries points.
    if (aspect === entity.keyAspect) run.pending.removePoints({ urn: urn.text });
    if (removed) await this.expand(change, run);
    return { urn: urn.text, entityType: entity.name, aspect: aspect.name, value: undefined, changed: removed };
  }

  /**
   * A DELETE of a timeseries aspect removes its latest point (the points at the latest time), as
   * DataHub's entity APIs delete a timeseries aspect; a range goes with Rest.li's delete action.
   */
  private async deleteLatestPoint(item: ResolvedProposal, run: Attempt): Promise<AppliedChange> {
    const { urn, entity, aspect } = item;
    const [latest] = await this.store.latestPoints([{ urn: urn.text, aspect: aspect.name }]);
    if (latest) run.pending.removePoints({ urn: urn.text, aspects: [aspect.name], start: latest.timestampMillis, end: latest.timestampMillis });
    return { urn: urn.text, entityType: entity.name, aspect: aspect.name, value: undefined, changed: latest !== undefined };
  }

  /** Patch application, then the aspect's mutators: the value the proposal will write. */
  private async valueToWrite(item: ResolvedProposal, previous: unknown, lookups: ValidationContext): Promise<unknown> {
    let value =
      item.proposal.changeType === 'PATCH'
        ? applyPatch(previous ?? structuredClone(item.aspect.template), item.proposal.patch!, item.aspect.patchKeys, item.aspect.patchKeysRequired)
        : item.proposal.value;
    for (const plugin of this.plugins.get(item.aspect.name) ?? []) {
      if (plugin.mutate) value = await plugin.mutate(this.change(item, previous, value), lookups);
    }
    return value;
  }

  /** A key aspect must match its URN, and every value its aspect's JSON Schema. */
  private async checkSchema(item: ResolvedProposal, value: unknown): Promise<void> {
    if (item.aspect === item.entity.keyAspect && !jsonEqual(value, item.key)) {
      throw new ValidationError(`Key aspect ${item.aspect.name} does not match the URN ${item.urn.text}`);
    }
    // The JSON text is made once and kept for the write (jsonText): its length tells a large value.
    await this.registry.validateWritten(item.entity, item.aspect, value, jsonText(value));
  }

  /** Runs the aspect's validators; the first error rejects the whole request. */
  private async validate(change: ProposedChange, lookups: ValidationContext): Promise<void> {
    for (const plugin of this.plugins.get(change.aspect.name) ?? []) {
      if (!plugin.validate) continue;
      const errors = await plugin.validate(change, lookups);
      if (errors.length > 0) throw errors[0];
    }
  }

  /**
   * A new entity gets its key aspect, and the default aspects the request does not write itself;
   * they are returned, for answers that show what a write created (DataHub's v3 batch writes).
   */
  private async createEntity(item: ResolvedProposal, run: Attempt): Promise<AppliedChange[]> {
    const urn = item.urn.text;
    const defaults = defaultAspects(item.entity, item.key);
    await run.state.load([urn], defaults.map(([name]) => name));
    const created = [run.pending.put(changed(item), item.entity.keyAspect.name, item.key, 'UPSERT')];
    const aspects = run.state.aspects(urn);
    for (const [name, value] of defaults) {
      if (!aspects.has(name) && !run.requested.has(aspectKey(urn, name))) created.push(run.pending.put(changed(item), name, value, 'UPSERT'));
    }
    return created;
  }

  /** Appends the proposals that the change's side effects imply, with their state loaded. */
  private async expand(change: ProposedChange, run: Attempt): Promise<void> {
    const added: ResolvedProposal[] = [];
    for (const plugin of this.plugins.get(change.aspect.name) ?? []) {
      if (plugin.sideEffects) for (const proposal of await plugin.sideEffects(change, run.lookups)) added.push(this.resolve(proposal, run.context));
    }
    if (added.length === 0) return;
    await this.loadFor(run.state, added);
    // A cascade may add an item per entity of the catalog: no spread of that many arguments.
    for (const item of added) run.items.push(item);
  }

  /** ONE transaction: aspect rows, search index rows and change-log events; then the listeners hear of it. */
  private async commit(run: Attempt, context: WriteContext): Promise<void> {
    await this.store.commit(await run.pending.batchFor(run.lookups, this.store));
    const { events } = run.pending;
    if (events.length > 0) for (const listener of this.listeners) listener(events, context);
  }

  /**
   * Loads what the proposals touch: their aspects and keys (everything for entity deletes), and
   * the aspects a new entity gets by default (createEntity then needs no read of its own).
   */
  private async loadFor(state: BatchState, items: readonly ResolvedProposal[]): Promise<void> {
    const whole = items.filter((i) => i.proposal.changeType === 'DELETE' && i.aspect === i.entity.keyAspect);
    if (whole.length > 0) await state.load([...new Set(whole.map((i) => i.urn.text))]);
    const names = new Set<string>();
    for (const item of items) {
      names.add(item.aspect.name).add(item.entity.keyAspect.name);
      for (const name of defaultAspectNames(item.entity)) names.add(name);
      for (const plugin of this.plugins.get(item.aspect.name) ?? []) for (const name of plugin.reads ?? []) names.add(name);
    }
    await state.load([...new Set(items.map((i) => i.urn.text))], [...names]);
  }

  private change(item: ResolvedProposal, previous: unknown, value: unknown): ProposedChange {
    return { urn: item.urn, entity: item.entity, aspect: item.aspect, changeType: item.proposal.changeType, previous, value };
  }
}

function aspectKey(urn: string, aspect: string): string {
  return `${urn}\u0000${aspect}`;
}

function changed(item: ResolvedProposal): ChangedEntity {
  return item.proposal.actor === undefined ? { urn: item.urn.text, entity: item.entity } : { urn: item.urn.text, entity: item.entity, actor: item.proposal.actor };
}

/** A refusal of a proposal's value, prefixed with where the request carried it (Proposal.where). */
function located<T>(proposal: Proposal, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw relocated(proposal, error);
  }
}

async function locatedAsync<T>(proposal: Proposal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw relocated(proposal, error);
  }
}

function relocated(proposal: Proposal, error: unknown): unknown {
  return proposal.where && error instanceof ValidationError ? new ValidationError(`${proposal.where}: ${error.message}`) : error;
}
