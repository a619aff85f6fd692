import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { Ingest } from '../ingest/ingest.js';
import type { Proposal, WriteContext } from '../ingest/proposal.js';
import type { Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { SearchService } from '../search/service.js';
import type { ChangeEvent } from '../store/store.js';
import { formType, formUrns, isVerified, pointerSegment, type FormInfo, type FormPrompt, type FormsAspect } from './model.js';
import { schemaFieldUrn } from './answers.js';
import { splitTypes, withUrns } from './filters.js';
import { groupsOf, isActor, type AspectLookup } from './actors.js';
import { entityTypeUrn } from '../structured/model.js';
import { entityTypeOf } from '../urn/urn.js';

/** How a form's assets stand: DataHub's form analytics, from the search index. */
export interface FormCompletion {
  form: string;
  assigned: number;
  completed: number;
  incomplete: number;
  /** VERIFICATION forms: assets whose completed form was verified. */
  verified: number;
  prompts: { id: string; title: string; required: boolean; completed: number; incomplete: number }[];
}

/** One item of a person's to-do list: a form to fill in, or (VERIFICATION forms) to verify, on an asset. */
export interface ToDoItem {
  asset: string;
  form: string;
  /** Ids of the prompts not answered yet (for an item awaiting verification, optional ones only). */
  incompletePrompts: string[];
  /** True when the form's required prompts are all answered and only its verification is left. */
  awaitingVerification: boolean;
}

const FORM_ARRAYS = { incompleteForms: ['urn'], completedForms: ['urn'], verifications: ['form'] };
/** Assets written per transaction when a filter assigns a form to many. */
const ASSIGN_CHUNK = 1000;
/** Chunks in flight at once (see inChunks). */
const ASSIGN_WRITERS = 2;
const PAGE = 10_000;
/** Assets named per search when checking which of them a filter matches (a search names at most 1,000 values). */
const AMONG_SLICE = 500;

/**
 * Assigning forms, answering and verifying them, and counting completion. Every change goes
 * through the one write path as proposals; the forms rules (plugins.ts) compute the states.
 */
export class Forms {
  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
    private readonly ingest: Ingest,
    private readonly search: () => SearchService,
  ) {}

  private holderTypeNames?: string[];
  private holderTypeSet?: ReadonlySet<string>;
  /** The dynamically assigned forms and their filters, read once until a form changes (forget). */
  private dynamic?: Promise<[string, unknown][]>;
  /** The same list once read: a catalog without dynamic forms answers follow() without awaiting it. */
  private dynamicKnown?: [string, unknown][];

  /** One aspect's latest value, through the read path. */
  private readonly lookup: AspectLookup = async (urn, aspect) => (await this.reader.getEntities([urn], new Set([aspect]))).get(urn)?.aspects.get(aspect)?.value;

  /** The entity types that carry forms. */
  holderTypes(): string[] {
    this.holderTypeNames ??= this.registry.entityTypes().filter((e) => this.registry.aspectOf(e, 'forms')).map((e) => e.name);
    return [...this.holderTypeNames];
  }

  /**
   * Drops what is cached of forms when a commit (here or, through the change follower, elsewhere)
   * changed a form entity: its filter, its info or the form itself.
   */
  forget(events: readonly ChangeEvent[]): void {
    if (this.dynamic !== undefined && events.some((e) => e.urn.startsWith('urn:li:form:'))) {
      this.dynamic = undefined;
      this.dynamicKnown = undefined;
    }
  }

  async info(form: string): Promise<FormInfo> {
    const found = await this.reader.getEntity(form, ['formInfo']);
    const info = found?.aspects.get('formInfo')?.value as FormInfo | undefined;
    if (!info) throw new NotFoundError(`Form ${form} does not exist`);
    return info;
  }

  /** Assigns a form to assets, all or nothing: an asset that does not exist fails the whole batch. */
  async assign(form: string, assets: readonly string[], context: WriteContext): Promise<void> {
    await this.info(form);
    await this.requireExisting(assets, 'assigned');
    await this.requireOutsideFilter(form, assets, 'assign');
    const proposals = assets.map((asset) => addForm(asset, form));
    await this.ingest.ingest(proposals, context);
  }

  async unassign(form: string, assets: readonly string[], context: WriteContext): Promise<void> {
    await this.requireExisting(assets, 'removed');
    await this.requireOutsideFilter(form, assets, 'remove');
    // Only the assets holding it: a keyed remove needs the lists it removes from.
    const stored = await this.reader.getEntities(assets, new Set(['forms']));
    const holding = assets.filter((a) => formUrns(stored.get(a)?.aspects.get('forms')?.value).includes(form));
    if (holding.length > 0) await this.ingest.ingest(holding.map((asset) => removeForm(asset, form)), context);
  }

  /**
   * Records a dynamic assignment; the commit's follower (follow) applies it before this returns:
   * matching assets get the form, others lose it. Answers how many gained and lost it.
   */
  async assignByFilter(form: string, filter: unknown, context: WriteContext): Promise<{ added: number; removed: number }> {
    const before = new Set(await this.holders(form));
    const [written] = await this.ingest.ingest([{ urn: form, aspect: 'dynamicFormAssignment', changeType: 'UPSERT', value: { filter } }], context);
    // A changed filter was applied by the commit's follower. The same filter again is no change and
    // has no follower: reconciling then mends what an interrupted run left.
    if (!written.changed) await this.reconcileForm(form, context);
    const after = new Set(await this.holders(form));
    return { added: [...after].filter((a) => !before.has(a)).length, removed: [...before].filter((a) => !after.has(a)).length };
  }

  /**
   * Brings a dynamically assigned form's holders in line with its filter, a chunk per transaction
   * (a crash between chunks is mended by the next write of the filter: this is idempotent).
   */
  async reconcileForm(form: string, context: WriteContext): Promise<{ added: number; removed: number }> {
    const filter = await this.filterOf(form);
    // Without its filter the form stays where it is, as if assigned by list.
    if (filter === undefined) return { added: 0, removed: 0 };
    const matches = new Set(await this.matching(form, filter));
    const holders = new Set(await this.holders(form));
    const proposals: Proposal[] = [];
    for (const asset of matches) if (!holders.has(asset)) proposals.push(addForm(asset, form));
    const added = proposals.length;
    for (const asset of holders) if (!matches.has(asset)) proposals.push(removeForm(asset, form));
    await this.inChunks(proposals, applying(context));
    return { added, removed: proposals.length - added };
  }

  /**
   * Writes proposals of distinct assets a chunk per transaction, two chunks at a time: while one
   * commits (PostgreSQL works on it in its own process), the forms rules compute the next. A failed
   * chunk stops the rest; chunks committed before it stay, as a filter's later run completes them.
   */
  private async inChunks(proposals: readonly Proposal[], context: WriteContext): Promise<void> {
    let next = 0;
    let failure: { error: unknown } | undefined;
    const writer = async () => {
      while (failure === undefined && next < proposals.length) {
        const chunk = proposals.slice(next, (next += ASSIGN_CHUNK));
        try {
          await this.ingest.ingest(chunk, context);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: ASSIGN_WRITERS }, writer));
    if (failure) throw failure.error;
  }

  /**
   * After a commit: assets it changed that now match a form's filter get the form, and those that
   * stopped matching lose it. The writes of `forms` alone change no match this follows.
   */
  async follow(events: readonly ChangeEvent[], context: WriteContext): Promise<void> {
    // However it was written (assignByFilter, a v2 write of the aspect), a new filter is applied now.
    for (const form of new Set(events.filter((e) => e.aspect === 'dynamicFormAssignment').map((e) => e.urn))) await this.reconcileForm(form, context);
    this.holderTypeSet ??= new Set(this.holderTypes());
    const holderTypes = this.holderTypeSet;
    const assets: string[] = [];
    const seen = new Set<string>();
    for (const e of events) {
      if (e.aspect === 'forms' || seen.has(e.urn)) continue;
      seen.add(e.urn);
      if (holderTypes.has(e.urn.slice(7, e.urn.indexOf(':', 7)))) assets.push(e.urn);
    }
    if (assets.length === 0 || this.dynamicKnown?.length === 0) return;
    const dynamic = this.dynamicKnown ?? (await this.dynamicList());
    if (dynamic.length === 0) return;
    const stored = await this.reader.getEntities(assets, new Set(['forms']));
    const proposals: Proposal[] = [];
    for (const [form, filter] of dynamic) {
      const matches = new Set(await this.matching(form, filter, assets));
      for (const asset of assets) {
        const entity = stored.get(asset);
        if (!entity) continue;
        const holds = formUrns(entity.aspects.get('forms')?.value).includes(form);
        if (matches.has(asset) && !holds) proposals.push(addForm(asset, form));
        if (!matches.has(asset) && holds) proposals.push(removeForm(asset, form));
      }
    }
    if (proposals.length > 0) await this.ingest.ingest(proposals, applying(context));
  }

  /**
   * Answers a prompt: sets its property on the asset (or, for a schema-field prompt, on each
   * field named), in one write.
   */
  async submitPrompt(
    asset: string,
    form: string,
    promptId: string,
    values: readonly ({ string: string } | { double: number })[],
    context: WriteContext,
    fieldPath?: string | readonly string[],
  ): Promise<void> {
    const prompt = await this.prompt(form, promptId);
    await this.requireActor(form, asset, context);
    const property = prompt.structuredPropertyParams!.urn;
    let targets = [asset];
    if (prompt.type === 'FIELDS_STRUCTURED_PROPERTY') {
      const paths = [...new Set(typeof fieldPath === 'string' ? [fieldPath] : (fieldPath ?? []))].filter((p) => p !== '');
      if (paths.length === 0) throw new ValidationError(`Prompt "${promptId}" of form ${form} asks about schema fields: say which with fieldPath`);
      const schema = (await this.lookup(asset, 'schemaMetadata')) as { fields?: { fieldPath?: string }[] } | undefined;
      const known = (schema?.fields ?? []).map((f) => f.fieldPath);
      const unknown = paths.filter((p) => !known.includes(p));
      if (unknown.length > 0) {
        const listed = known.length === 0 ? 'it has no schema fields' : `its fields: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}`;
        throw new ValidationError(`${unknown.map((p) => `"${p}"`).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${asset}'s schema (${listed})`);
      }
      targets = paths.map((p) => schemaFieldUrn(asset, p));
    }
    const entry = { propertyUrn: property, values };
    await this.ingest.ingest(
      targets.map((target) => ({ urn: target, aspect: 'structuredProperties', changeType: 'PATCH', patch: { patch: [{ op: 'add', path: `/properties/${pointerSegment(property)}`, value: entry }], arrayPrimaryKeys: { properties: ['propertyUrn'] } } })),
      context,
    );
  }

  /** The verification step of a VERIFICATION form, once its required prompts are answered. */
  async verify(asset: string, form: string, context: WriteContext): Promise<void> {
    await this.requireActor(form, asset, context);
    const lastModified = { time: Date.now(), actor: context.actor };
    await this.ingest.ingest(
      [{ urn: asset, aspect: 'forms', changeType: 'PATCH', patch: { patch: [{ op: 'add', path: `/verifications/${pointerSegment(form)}`, value: { form, lastModified } }], arrayPrimaryKeys: FORM_ARRAYS } }],
      context,
    );
  }

  /**
   * Completion counts: assets assigned, complete, incomplete and verified, and each prompt's. Each
   * count is of one value of one indexed field, which the search index counts without a scan: an
   * asset lists a form in incompleteForms or in completedForms, never both, keeps a verification
   * only while the form is complete (computeForms), and a prompt id belongs to one form (formInfo's
   * rules), so the sums and the single-field counts are exact.
   */
  async completion(form: string): Promise<FormCompletion> {
    const info = await this.info(form);
    const prompts = info.prompts ?? [];
    const counts = await Promise.all([
      this.countOf('incompleteForms', form),
      this.countOf('completedForms', form),
      this.countOf('verifiedForms', form),
      ...prompts.flatMap((p) => [this.countOf('incompleteFormsCompletedPromptIds', p.id), this.countOf('completedFormsCompletedPromptIds', p.id)]),
    ]);
    const [incomplete, completed, verified] = counts;
    const assigned = incomplete + completed;
    return {
      form,
      assigned,
      completed,
      incomplete,
      verified,
      prompts: prompts.map((p, i) => {
        const done = counts[3 + 2 * i] + counts[4 + 2 * i];
        return { id: p.id, title: p.title, required: p.required === true, completed: done, incomplete: assigned - done };
      }),
    };
  }

  /**
   * Whether a person is asked to fill the form in on the asset: named in its actors, in a group
   * named there, or (actors.owners, the default) an owner of the asset.
   */
  async isActor(info: FormInfo, asset: string, actor: string): Promise<boolean> {
    return isActor(this.lookup, info, asset, actor);
  }

  /**
   * What a person is asked to do (as an actor of the form, or an owner of the asset where the form
   * asks owners), at most `limit` items: the open forms, with the prompts still unanswered, and the
   * VERIFICATION forms complete but not verified yet, which await the person's verification.
   */
  async todo(actor: string, limit = 100): Promise<ToDoItem[]> {
    const items: ToDoItem[] = [];
    const groups = await groupsOf(this.lookup, actor);
    const forms = await this.reader.getEntities(await this.all(undefined, ['form']), new Set(['formInfo']));
    for (const [form, entity] of forms) {
      const info = entity.aspects.get('formInfo')?.value as FormInfo | undefined;
      if (!info) continue;
      const actors = info.actors ?? { owners: true };
      const named = actors.users?.includes(actor) || actors.groups?.some((g) => groups.includes(g));
      if (!named && actors.owners === false) continue;
      // Open, or (a VERIFICATION form) complete and not verified: both from the index.
      const wanted: unknown[][] = [[{ field: 'incompleteForms', values: [form] }]];
      if (formType(info) === 'VERIFICATION') wanted.push([{ field: 'completedForms', values: [form] }, { field: 'verifiedForms', values: [form], negated: true }]);
      const owned = named ? [] : [{ field: 'owners', values: [actor, ...groups] }];
      const filter = { or: wanted.map((and) => ({ and: [...and, ...owned] })) };
      const page = await this.search().search({ types: this.holderTypes(), filter, count: limit - items.length, includeSoftDelete: false });
      const held = await this.reader.getEntities(page.urns, new Set(['forms']));
      for (const asset of page.urns) {
        const value = held.get(asset)?.aspects.get('forms')?.value as Partial<FormsAspect> | undefined;
        const open = value?.incompleteForms?.find((f) => f.urn === form);
        const complete = open ? undefined : value?.completedForms?.find((f) => f.urn === form);
        const state = open ?? (complete && !isVerified(value, form) ? complete : undefined);
        if (state) items.push({ asset, form, incompletePrompts: (state.incompletePrompts ?? []).map((p) => p.id), awaitingVerification: state === complete });
      }
      if (items.length >= limit) break;
    }
    return items;
  }

  /** Only the people a form asks (and admins) answer or verify it on an asset that holds it. */
  private async requireActor(form: string, asset: string, context: WriteContext): Promise<void> {
    const info = await this.info(form);
    const held = await this.reader.getEntity(asset, ['forms']);
    if (!held) throw new NotFoundError(`Entity ${asset} does not exist`);
    if (!formUrns(held.aspects.get('forms')?.value).includes(form)) throw new ValidationError(`Form ${form} is not assigned to ${asset}`);
    if (context.admin || (await this.isActor(info, asset, context.actor))) return;
    throw new ForbiddenError(`${context.actor} is not asked to fill in form ${form} on ${asset}: only its actors (and the asset's owners, where the form asks owners) may`);
  }

  /** The assets holding a form, as committed. */
  async holders(form: string): Promise<string[]> {
    return this.all({ or: [{ and: [{ field: 'incompleteForms', values: [form] }] }, { and: [{ field: 'completedForms', values: [form] }] }] }, this.holderTypes());
  }

  /**
   * Checks a dynamic filter's shape and fields; returns the entity types it names (`_entityType`).
   * A branch naming none matches the types the form's prompts apply to (see matching), so it
   * adds none.
   */
  async filterTypes(filter: unknown): Promise<string[]> {
    const branches = splitTypes(filter);
    for (const [g, branch] of branches.entries()) {
      for (const t of branch.types) if (!this.holderTypes().includes(t)) throw new ValidationError(`A form cannot be assigned to ${t} entities: they carry no forms (those that do: ${this.holderTypes().join(', ')})`);
      try {
        await this.search().search({ types: branch.types.length ? branch.types : this.holderTypes(), filter: branch.filter, count: 0, includeSoftDelete: false });
      } catch (error) {
        // The search names the criterion in the branch it was given: here, where the stored filter has it.
        if (!(error instanceof ValidationError)) throw error;
        throw new ValidationError(error.message.replace(/^filter\.or\[0\]\.criteria\[(\d+)\]/, (_m, i: string) => `filter.or[${g}].and[${branch.positions[Number(i)]}]`));
      }
    }
    return [...new Set(branches.flatMap((b) => b.types))];
  }

  private async prompt(form: string, promptId: string): Promise<FormPrompt> {
    const prompt = (await this.info(form)).prompts?.find((p) => p.id === promptId);
    if (!prompt) throw new NotFoundError(`Form ${form} has no prompt with id "${promptId}"`);
    return prompt;
  }

  private async requireExisting(assets: readonly string[], done: 'assigned' | 'removed'): Promise<void> {
    if (assets.length === 0) throw new ValidationError('Name at least one asset');
    const holderTypes = this.holderTypes();
    const foreign = assets.filter((a) => !holderTypes.includes(entityTypeOf(a)));
    if (foreign.length > 0) throw new ValidationError(`Nothing was ${done}: ${foreign.join(', ')} cannot hold forms: entities of ${[...new Set(foreign.map(entityTypeOf))].join(', ')} carry none (those that do: ${holderTypes.join(', ')})`);
    const found = await this.reader.getEntities(assets, new Set());
    const missing = assets.filter((a) => !found.has(a));
    if (missing.length > 0) throw new ValidationError(`Nothing was ${done}: ${missing.length === 1 ? 'this entity does' : 'these entities do'} not exist: ${missing.join(', ')}`);
  }

  /** A form assigned by a filter is assigned by it alone: explicit changes against it would be undone. */
  private async requireOutsideFilter(form: string, assets: readonly string[], action: 'assign' | 'remove'): Promise<void> {
    const filter = await this.filterOf(form);
    if (filter === undefined) return;
    const matches = new Set(await this.matching(form, filter, assets));
    const against = assets.filter((a) => (action === 'assign' ? !matches.has(a) : matches.has(a)));
    if (against.length === 0) return;
    const how = action === 'assign' ? 'does not match it' : 'matches it';
    throw new ValidationError(`Form ${form} is assigned by a filter, and ${against.join(', ')} ${how}: change the filter instead`);
  }

  private async filterOf(form: string): Promise<unknown> {
    const found = await this.reader.getEntity(form, ['dynamicFormAssignment']);
    return (found?.aspects.get('dynamicFormAssignment')?.value as { filter?: unknown } | undefined)?.filter;
  }

  /** The dynamic forms, read once and shared by the writes that ask meanwhile; kept until forget(). */
  private dynamicList(): Promise<[string, unknown][]> {
    if (this.dynamic) return this.dynamic;
    const reading = this.dynamicForms().then(
      (list) => {
        if (this.dynamic === reading) this.dynamicKnown = list;
        return list;
      },
      (error: unknown) => {
        if (this.dynamic === reading) this.dynamic = undefined;
        throw error;
      },
    );
    this.dynamic = reading;
    return reading;
  }

  private async dynamicForms(): Promise<[string, unknown][]> {
    const forms: [string, unknown][] = [];
    for (const urn of await this.all(undefined, ['form'])) {
      const filter = await this.filterOf(urn);
      if (filter !== undefined) forms.push([urn, filter]);
    }
    return forms;
  }

  /**
   * The assets a form's dynamic filter matches (of those given, when given). A branch that names
   * no entity type matches assets of the types every prompt's property applies to: a filter on
   * `platform` alone means the datasets of a form about datasets, not its charts too.
   */
  private async matching(form: string, filter: unknown, among?: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    let applicable: string[] | undefined;
    for (const branch of splitTypes(filter)) {
      const types = branch.types.length > 0 ? branch.types : (applicable ??= await this.applicableTypes(form));
      if (types.length === 0) continue;
      if (among === undefined) {
        found.push(...(await this.all(branch.filter, types)));
        continue;
      }
      // A search names at most 1,000 values: the assets go in slices, beside the filter's own values.
      for (let i = 0; i < among.length; i += AMONG_SLICE) found.push(...(await this.all(withUrns(branch.filter, among.slice(i, i + AMONG_SLICE)), types)));
    }
    return [...new Set(found)];
  }

  /** The entity types holding forms that every property the form asks of the asset itself applies to. */
  private async applicableTypes(form: string): Promise<string[]> {
    const info = (await this.reader.getEntity(form, ['formInfo']))?.aspects.get('formInfo')?.value as FormInfo | undefined;
    const properties = [...new Set((info?.prompts ?? []).filter((p) => p.type !== 'FIELDS_STRUCTURED_PROPERTY' && p.structuredPropertyParams?.urn).map((p) => p.structuredPropertyParams!.urn))];
    if (properties.length === 0) return this.holderTypes();
    const definitions = await this.reader.getEntities(properties, new Set(['propertyDefinition']));
    const typesOf = properties.map((p) => (definitions.get(p)?.aspects.get('propertyDefinition')?.value as { entityTypes?: string[] } | undefined)?.entityTypes ?? []);
    return this.holderTypes().filter((t) => typesOf.every((types) => types.includes(entityTypeUrn(t))));
  }

  private async all(filter: unknown, types: readonly string[]): Promise<string[]> {
    const urns: string[] = [];
    let scrollId: string | undefined;
    do {
      const page = await this.search().search({ types, filter, count: PAGE, includeSoftDelete: true, ...(scrollId ? { scrollId } : {}) });
      urns.push(...page.urns);
      scrollId = page.urns.length === PAGE ? page.scrollId : undefined;
    } while (scrollId);
    return urns;
  }

  private async countOf(field: string, value: string): Promise<number> {
    return (await this.search().search({ types: this.holderTypes(), filter: { or: [{ and: [{ field, values: [value] }] }] }, count: 0, includeSoftDelete: true })).totalCount;
  }
}

/**
 * A filter's membership changes are urnbase applying what an admin wrote, whoever's write made an
 * asset match: they pass the admin-only rule on assignment, attributed to the writer.
 */
function applying(context: WriteContext): WriteContext {
  return { ...context, admin: true };
}

function addForm(asset: string, form: string): Proposal {
  return { urn: asset, aspect: 'forms', changeType: 'PATCH', patch: { patch: [{ op: 'add', path: `/incompleteForms/${pointerSegment(form)}`, value: { urn: form } }], arrayPrimaryKeys: FORM_ARRAYS } };
}

function removeForm(asset: string, form: string): Proposal {
  const at = pointerSegment(form);
  return {
    urn: asset,
    aspect: 'forms',
    changeType: 'PATCH',
    // Its verification, if any, goes too: the forms rules keep verifications of assigned, complete forms
    // only (a remove at /verifications would fail where the asset has none).
    patch: { patch: [{ op: 'remove', path: `/incompleteForms/${at}` }, { op: 'remove', path: `/completedForms/${at}` }], arrayPrimaryKeys: FORM_ARRAYS },
  };
}
