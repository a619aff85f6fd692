import { randomUUID } from 'node:crypto';
import { ConflictError, ForbiddenError, PreconditionError, ValidationError } from '../../../errors.js';
import type { WriteContext } from '../../../ingest/proposal.js';
import { isRecord, jsonEqual } from '../../../json.js';
import { PROPERTY_PROMPTS, type FormActors, type FormInfo, type FormPrompt } from '../../../forms/model.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import { entityDeletion } from '../../entity-writes.js';
import type { GraphQLContext } from '../context.js';
import type { AndFilterInput } from '../filters.js';
import { writer } from './mutations.js';

/**
 * The forms mutations, under DataHub's names. Defining a form is a write of its `formInfo`
 * through Ingest (the forms rules of the write path check its prompts and recompute the assets
 * holding it); assigning, answering and verifying go through the Forms service. What is checked
 * here is the input's shape, with DataHub's messages, and who may: managing forms (define,
 * assign, remove) is an admin's, as DataHub's "Manage Forms" privilege is; answering and
 * verifying are the form's actors' (the service checks).
 */

interface PromptInput {
  id?: string | null;
  title: string;
  description?: string | null;
  type: string;
  structuredPropertyParams?: { urn: string } | null;
  ownershipParams?: { cardinality: string } | null;
  required?: boolean | null;
}

interface ActorsInput {
  owners?: boolean | null;
  users?: string[] | null;
  groups?: string[] | null;
}

interface ActorsUpdateInput extends ActorsInput {
  usersToAdd?: string[] | null;
  usersToRemove?: string[] | null;
  groupsToAdd?: string[] | null;
  groupsToRemove?: string[] | null;
}

interface CreateInput {
  id?: string | null;
  name: string;
  description?: string | null;
  type?: string | null;
  prompts?: PromptInput[] | null;
  actors?: ActorsInput | null;
}

interface UpdateInput {
  urn: string;
  name?: string | null;
  description?: string | null;
  type?: string | null;
  prompts?: PromptInput[] | null;
  promptsToAdd?: PromptInput[] | null;
  promptsToRemove?: string[] | null;
  actors?: ActorsUpdateInput | null;
}

interface SubmitInput {
  promptId: string;
  formUrn: string;
  type: string;
  fieldPath?: string | null;
  fieldPaths?: string[] | null;
  structuredPropertyParams?: { structuredPropertyUrn: string; values: { stringValue?: string | null; numberValue?: number | null }[] } | null;
  ownershipParams?: unknown;
}

type Args<T> = { input: T };

const FORM = 'form';

/** DataHub's refusal without the Manage Forms privilege ("Unable to create form. …"): here, for anyone but an admin. */
function manager(ctx: GraphQLContext, action: string): WriteContext {
  if (ctx.principal && ctx.principal.role !== 'admin') throw new ForbiddenError(`Unable to ${action}. Please contact your admin.`);
  return writer(ctx);
}

/** The URN must parse and be a form's. */
function formUrn(urn: string, where: string): string {
  parseUrn(urn);
  if (entityTypeOf(urn) !== FORM) throw new ValidationError(`${where}: ${urn} is not a form urn`);
  return urn;
}

/** The URNs must parse; each is kept once, in order (DataHub tolerates duplicates). */
function entityUrns(urns: readonly string[]): string[] {
  for (const urn of urns) parseUrn(urn);
  return [...new Set(urns)];
}

/** A prompt as formInfo keeps it; a missing id is a random UUID, as DataHub's. */
function prompt(input: PromptInput): FormPrompt {
  if (PROPERTY_PROMPTS.has(input.type) && !input.structuredPropertyParams) {
    throw new ValidationError('Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params');
  }
  const value: FormPrompt & Record<string, unknown> = { id: input.id ?? randomUUID(), title: input.title, type: input.type };
  if (input.description != null) value.description = input.description;
  if (input.structuredPropertyParams) value.structuredPropertyParams = { urn: input.structuredPropertyParams.urn };
  if (input.ownershipParams) value.ownershipParams = { cardinality: input.ownershipParams.cardinality };
  if (input.required != null) value.required = input.required;
  return value;
}

function actors(input: ActorsInput): FormActors {
  const value: FormActors = {};
  if (input.owners != null) value.owners = input.owners;
  if (input.users != null) value.users = entityUrns(input.users);
  if (input.groups != null) value.groups = entityUrns(input.groups);
  return value;
}

/** A list replaced (when `set` is given), then added to and taken from; undefined when nothing is left and nothing was there. */
function changeList(current: readonly string[] | undefined, set: readonly string[] | null | undefined, add: readonly string[] | null | undefined, remove: readonly string[] | null | undefined): string[] | undefined {
  if (set == null && add == null && remove == null) return current ? [...current] : undefined;
  let list = set != null ? entityUrns(set) : [...(current ?? [])];
  if (add != null) list = [...new Set([...list, ...entityUrns(add)])];
  if (remove != null) list = list.filter((u) => !remove.includes(u));
  return list;
}

function updatedActors(current: FormActors | undefined, input: ActorsUpdateInput): FormActors {
  const value: FormActors = { ...current };
  if (input.owners != null) value.owners = input.owners;
  const users = changeList(current?.users, input.users, input.usersToAdd, input.usersToRemove);
  const groups = changeList(current?.groups, input.groups, input.groupsToAdd, input.groupsToRemove);
  if (users !== undefined) value.users = users;
  if (groups !== undefined) value.groups = groups;
  return value;
}

/**
 * The form after the update's changes: prompts replaced first, then added to (a prompt of the same
 * id replaced, as DataHub's editor edits a prompt by adding it again) and taken from (an id the
 * form has not is no change, as in DataHub).
 */
function updatedInfo(current: FormInfo, input: UpdateInput): FormInfo {
  const next: FormInfo & Record<string, unknown> = { ...current };
  if (input.name != null) next.name = input.name;
  if (input.description != null) next.description = input.description;
  if (input.type != null) next.type = input.type as FormInfo['type'];
  let prompts = input.prompts != null ? input.prompts.map(prompt) : [...(current.prompts ?? [])];
  for (const added of (input.promptsToAdd ?? []).map(prompt)) {
    const at = prompts.findIndex((p) => p.id === added.id);
    if (at >= 0) prompts[at] = added;
    else prompts.push(added);
  }
  if (input.promptsToRemove != null) prompts = prompts.filter((p) => !input.promptsToRemove!.includes(p.id));
  if (input.prompts != null || input.promptsToAdd != null || input.promptsToRemove != null) next.prompts = prompts;
  if (input.actors != null) next.actors = updatedActors(current.actors, input.actors);
  return next;
}

async function createForm(_: unknown, { input }: Args<CreateInput>, ctx: GraphQLContext) {
  const context = manager(ctx, 'create form');
  const urn = `urn:li:${FORM}:${input.id ?? randomUUID()}`;
  parseUrn(urn);
  if (await ctx.services.reader.exists(urn)) throw new ValidationError(`A form already exists with urn ${urn}: change it with updateForm`);
  const info: FormInfo & Record<string, unknown> = { name: input.name, prompts: (input.prompts ?? []).map(prompt) };
  if (input.description != null) info.description = input.description;
  if (input.type != null) info.type = input.type as FormInfo['type'];
  if (input.actors != null) info.actors = actors(input.actors);
  // CREATE_ENTITY: a form created by another request since the check above is refused, not overwritten.
  await ctx.services.ingest.ingest([{ urn, aspect: 'formInfo', changeType: 'CREATE_ENTITY', value: info }], context);
  ctx.entities.forget(urn);
  return { urn };
}

/** Tries of an update whose formInfo was overtaken by another write before it is refused as a conflict. */
const TRIES = 5;

async function updateForm(_: unknown, { input }: Args<UpdateInput>, ctx: GraphQLContext) {
  const context = manager(ctx, 'update form');
  const urn = formUrn(input.urn, 'urn');
  for (let attempt = 1; ; attempt++) {
    const read = await ctx.services.reader.getAspect(urn, 'formInfo');
    if (!read || !isRecord(read.value)) throw new ValidationError(`Form with urn ${urn} does not exist`);
    const current = read.value as unknown as FormInfo;
    const next = updatedInfo(current, input);
    if (jsonEqual(next, current)) break;
    try {
      await ctx.services.ingest.ingest([{ urn, aspect: 'formInfo', changeType: 'UPSERT', value: next, ifVersionMatch: read.systemMetadata.version }], context);
      break;
    } catch (error) {
      if (!(error instanceof PreconditionError)) throw error;
      if (attempt >= TRIES) throw new ConflictError(`The form ${urn} kept changing while it was being updated: send the mutation again`);
    }
  }
  ctx.entities.forget(urn);
  return { urn };
}

/** The form's key deleted (its every aspect goes); the forms rules drop it from each asset in the same write. */
async function deleteForm(_: unknown, { input }: Args<{ urn: string }>, ctx: GraphQLContext): Promise<boolean> {
  const context = manager(ctx, 'delete form');
  formUrn(input.urn, 'urn');
  // As DataHub's: deleting a form that is not there answers true.
  if (!(await ctx.services.reader.exists(input.urn))) return true;
  const { urn, entity } = ctx.services.reader.entityOf(input.urn);
  await ctx.services.ingest.ingest(await entityDeletion(ctx.services.reader, urn, entity, undefined, false), context);
  ctx.entities.forget(input.urn);
  return true;
}

async function batchAssignForm(_: unknown, { input }: Args<{ formUrn: string; entityUrns: string[] }>, ctx: GraphQLContext): Promise<boolean> {
  const context = manager(ctx, 'assign form');
  const form = formUrn(input.formUrn, 'formUrn');
  const assets = entityUrns(input.entityUrns);
  await ctx.services.forms.assign(form, assets, context);
  for (const asset of assets) ctx.entities.forget(asset);
  return true;
}

async function batchRemoveForm(_: unknown, { input }: Args<{ formUrn: string; entityUrns: string[] }>, ctx: GraphQLContext): Promise<boolean> {
  const context = manager(ctx, 'remove form');
  const form = formUrn(input.formUrn, 'formUrn');
  const assets = entityUrns(input.entityUrns);
  await ctx.services.forms.info(form);
  await ctx.services.forms.unassign(form, assets, context);
  for (const asset of assets) ctx.entities.forget(asset);
  return true;
}

/** DataHub's Filter from GraphQL's orFilters, fields as sent (`platform.keyword`, `_entityType`): the form's dynamicFormAssignment keeps it so. */
function storedFilter(orFilters: readonly AndFilterInput[]) {
  return {
    or: orFilters.map((group) => ({
      and: (group.and ?? []).map((c) => ({
        field: c.field,
        values: [...(c.values ?? (c.value != null ? [c.value] : []))],
        condition: c.condition ?? 'EQUAL',
        negated: c.negated ?? false,
      })),
    })),
  };
}

async function createDynamicFormAssignment(_: unknown, { input }: Args<{ formUrn: string; orFilters: AndFilterInput[] }>, ctx: GraphQLContext): Promise<boolean> {
  const context = manager(ctx, 'create dynamic form assignment');
  const form = formUrn(input.formUrn, 'formUrn');
  await ctx.services.forms.info(form);
  try {
    await ctx.services.forms.assignByFilter(form, storedFilter(input.orFilters), context);
  } catch (error) {
    // The filter's refusals name a criterion where the stored filter has it: here, where the input has it.
    if (error instanceof ValidationError) throw new ValidationError(error.message.replace(/^filter\.or\[(\d+)\]\.and\[(\d+)\]/, 'orFilters[$1].and[$2]'));
    throw error;
  }
  return true;
}

/** A value given to a prompt: exactly one of stringValue and numberValue. */
function primitive(value: { stringValue?: string | null; numberValue?: number | null }): { string: string } | { double: number } {
  const hasString = value.stringValue != null;
  if (hasString === (value.numberValue != null)) throw new ValidationError('Each value must provide exactly one of stringValue or numberValue.');
  return hasString ? { string: value.stringValue! } : { double: value.numberValue! };
}

async function submitFormPrompt(_: unknown, { urn, input }: { urn: string; input: SubmitInput }, ctx: GraphQLContext): Promise<boolean> {
  const context = writer(ctx);
  parseUrn(urn);
  const form = formUrn(input.formUrn, 'formUrn');
  if (!PROPERTY_PROMPTS.has(input.type)) throw new ValidationError(`type: urnbase answers STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only, not ${input.type}`);
  const params = input.structuredPropertyParams;
  if (!params) throw new ValidationError(`Failed to provide structured property params for prompt type ${input.type}`);
  const fieldPaths = [...new Set([...(input.fieldPath != null ? [input.fieldPath] : []), ...(input.fieldPaths ?? [])])];
  if (input.type === 'FIELDS_STRUCTURED_PROPERTY' && fieldPaths.length === 0) throw new ValidationError('Failed to provide fieldPaths for FIELDS prompt type');
  const asked = (await ctx.services.forms.info(form)).prompts?.find((p) => p.id === input.promptId);
  if (asked) {
    if (asked.type !== input.type) throw new ValidationError(`type: prompt "${input.promptId}" of form ${form} is a ${asked.type} prompt, not ${input.type}`);
    const property = asked.structuredPropertyParams?.urn;
    if (property !== params.structuredPropertyUrn) {
      throw new ValidationError(`structuredPropertyParams.structuredPropertyUrn: prompt "${input.promptId}" of form ${form} asks for ${property}, not ${params.structuredPropertyUrn}`);
    }
  }
  const values = params.values.map(primitive);
  await ctx.services.forms.submitPrompt(urn, form, input.promptId, values, context, input.type === 'FIELDS_STRUCTURED_PROPERTY' ? fieldPaths : undefined);
  ctx.entities.forget(urn);
  return true;
}

async function verifyForm(_: unknown, { input }: Args<{ formUrn: string; entityUrn: string }>, ctx: GraphQLContext): Promise<boolean> {
  const context = writer(ctx);
  const form = formUrn(input.formUrn, 'formUrn');
  parseUrn(input.entityUrn);
  await ctx.services.forms.verify(input.entityUrn, form, context);
  ctx.entities.forget(input.entityUrn);
  return true;
}

export const formMutations = {
  createForm,
  updateForm,
  deleteForm,
  batchAssignForm,
  batchRemoveForm,
  createDynamicFormAssignment,
  submitFormPrompt,
  verifyForm,
};
