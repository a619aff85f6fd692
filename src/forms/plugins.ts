import { ConflictError, ForbiddenError, ValidationError, type DomainError } from '../errors.js';
import type { AspectPlugin, ProposedChange, ValidationContext } from '../ingest/plugins.js';
import type { Proposal } from '../ingest/proposal.js';
import { jsonEqual } from '../json.js';
import { entityTypeUrn, isSoftDeleted, type PropertyDefinition } from '../structured/model.js';
import { entityTypeOf } from '../urn/urn.js';
import { isActor } from './actors.js';
import { answersOf } from './answers.js';
import { computeForms } from './compute.js';
import { PROPERTY_PROMPTS, formUrns, type FormInfo, type FormsAspect } from './model.js';

/** Where the forms rules find an asset's holders and a form's dynamic entity types (wired in core). */
export interface FormLookups {
  /** The assets whose `forms` aspect names the form, as committed. */
  holders(form: string): Promise<string[]>;
  /** Checks a dynamic assignment's filter; returns the entity types it limits itself to (empty: any). */
  filterTypes(filter: unknown): Promise<string[]>;
}

/**
 * The write path's forms rules. An asset's `forms` aspect is computed: whatever a write says of
 * prompt states is replaced by what the asset's answers give, in the same transaction; changes of
 * answers, schema fields, forms and their properties recompute the assets they touch.
 */
export function formPlugins(lookups: FormLookups): Map<string, AspectPlugin[]> {
  return new Map<string, AspectPlugin[]>([
    ['forms', [formsRules]],
    ['formInfo', [formInfoRules(lookups)]],
    [
      'formKey',
      [
        {
          validate: async (change, context) => (change.value === undefined && !context.admin ? [new ForbiddenError(`Only an admin may delete form ${change.urn.text}`)] : []),
          sideEffects: (change, context) => (change.value === undefined ? recompute(context, [], change.urn.text, lookups) : []),
        },
      ],
    ],
    ['dynamicFormAssignment', [dynamicRules(lookups)]],
    ['structuredProperties', [answerEffects]],
    ['schemaMetadata', [answerEffects]],
    ['status', [propertyStatusEffects(lookups)]],
    // A property a form asks for is not hard deleted from under it (the form could not be edited).
    ['propertyDefinition', [askedPropertyGuard]],
    ['structuredPropertyKey', [askedPropertyGuard]],
  ]);
}

/** A verification the write adds is by an admin or by someone the form asks on this asset. */
async function checkVerifiers(context: ValidationContext, change: ProposedChange, infos: ReadonlyMap<string, FormInfo | undefined>): Promise<void> {
  const had = new Set(((change.previous as Partial<FormsAspect> | undefined)?.verifications ?? []).map((v) => v.form));
  const get = (urn: string, aspect: string) => context.get(urn, aspect);
  for (const v of (change.value as Partial<FormsAspect>).verifications ?? []) {
    const info = infos.get(v?.form);
    if (had.has(v?.form) || context.admin || !info) continue;
    if (!(await isActor(get, info, change.urn.text, context.actor))) {
      throw new ForbiddenError(`${context.actor} is not asked to fill in form ${v.form} on ${change.urn.text}: only its actors (and the asset's owners, where the form asks owners) may verify it`);
    }
  }
}

const askedPropertyGuard: AspectPlugin = {
  async validate(change, context) {
    if (change.value !== undefined) return [];
    const property = change.urn.text;
    const asking: string[] = [];
    for await (const { urn, value } of context.scan('formInfo')) if ((value as FormInfo).prompts?.some((p) => p.structuredPropertyParams?.urn === property)) asking.push(urn);
    if (asking.length === 0) return [];
    return [new ConflictError(`Cannot hard delete Structured Property ${property}: ${asking.length === 1 ? 'form' : 'forms'} ${asking.join(', ')} ${asking.length === 1 ? 'asks' : 'ask'} for it; remove those prompts first`)];
  },
};

/** An asset's `forms`: the forms it names are its assignment; the rest is computed. */
const formsRules: AspectPlugin = {
  // answersOf reads the asset's own answers: loaded with the request's `forms`, not one read an asset.
  reads: ['structuredProperties'],
  async mutate(change, context) {
    if (change.value === undefined || change.value === null || typeof change.value !== 'object') return change.value;
    const forms = formUrns(change.value);
    const infos = await infosOf(context, forms);
    const before = new Set(formUrns(change.previous));
    const asset = change.urn.text;
    // Which forms an asset has is an admin's to say (batchAssignForm is), on every API.
    const moved = [...forms.filter((f) => !before.has(f)), ...[...before].filter((f) => !forms.includes(f))];
    if (moved.length > 0 && !context.admin) throw new ForbiddenError(`Only an admin may assign or remove forms (${moved.join(', ')} on ${asset})`);
    await checkVerifiers(context, change, infos);
    for (const form of forms) {
      if (before.has(form)) continue;
      const info = infos.get(form);
      if (!info) throw new ValidationError(`Form ${form} does not exist: write its formInfo first`);
      await checkApplies(context, form, info, [change.entity.name], change.urn.text);
    }
    const withFields = [...infos.values()].some(hasFieldPrompts);
    const answers = (await answersOf(context, [change.urn.text], withFields)).get(change.urn.text)!;
    return computeForms({
      forms,
      previous: change.previous as Partial<FormsAspect> | undefined,
      written: change.value as Partial<FormsAspect>,
      infos,
      answers,
      stamp: { time: Date.now(), actor: context.actor },
      asset: change.urn.text,
    });
  },
};

function formInfoRules(lookups: FormLookups): AspectPlugin {
  return {
    async validate(change, context) {
      // Defining forms is an admin's, as DataHub's Manage Forms privilege is.
      if (!context.admin) return [new ForbiddenError(`Only an admin may create, change or delete form ${change.urn.text}`)];
      if (change.value === undefined) return [];
      const info = change.value as FormInfo;
      const form = change.urn.text;
      const problems = promptShapeProblems(form, info);
      if (problems.length > 0) return problems;
      // Prompt ids are unique across forms (DataHub checks it too): answers and counts key on them.
      const ids = new Set((info.prompts ?? []).map((p) => p.id));
      for await (const other of context.scan('formInfo')) {
        if (other.urn === form) continue;
        const shared = (other.value as FormInfo).prompts?.find((p) => ids.has(p.id));
        if (shared) return [new ValidationError(`Prompt id "${shared.id}" is already used by form ${other.urn}: prompt ids must be unique across forms`)];
      }
      const types = new Set((await lookups.holders(form)).map(entityTypeOf));
      const dynamic = await context.get(form, 'dynamicFormAssignment');
      if (dynamic !== undefined) for (const t of await lookups.filterTypes((dynamic as { filter?: unknown }).filter)) types.add(t);
      try {
        await checkApplies(context, form, info, [...types]);
      } catch (error) {
        return [error as DomainError];
      }
      return [];
    },
    sideEffects: (change, context) => recompute(context, [], change.urn.text, lookups),
  };
}

function dynamicRules(lookups: FormLookups): AspectPlugin {
  return {
    async validate(change, context) {
      if (!context.admin) return [new ForbiddenError(`Only an admin may assign form ${change.urn.text} by a filter`)];
      if (change.value === undefined) return [];
      const form = change.urn.text;
      const info = (await context.get(form, 'formInfo')) as FormInfo | undefined;
      if (!info) return [new ValidationError(`Form ${form} does not exist: write its formInfo first`)];
      try {
        const types = await lookups.filterTypes((change.value as { filter?: unknown }).filter);
        await checkApplies(context, form, info, types);
      } catch (error) {
        return [error as DomainError];
      }
      return [];
    },
  };
}

/** A change of an asset's answers (its own, or a schema field's) or of its schema fields. */
const answerEffects: AspectPlugin = {
  async sideEffects(change, context) {
    const asset = change.urn.entityType === 'schemaField' ? change.urn.parts[0] : change.urn.text;
    if (asset === undefined) return [];
    if (change.aspect.name === 'schemaMetadata' && jsonEqual(fieldPaths(change.previous), fieldPaths(change.value))) return [];
    return recompute(context, [asset]);
  },
};

/** Soft delete or restore of a structured property changes what its values answer. */
function propertyStatusEffects(lookups: FormLookups): AspectPlugin {
  return {
    async sideEffects(change, context) {
      if (change.urn.entityType !== 'structuredProperty' || isSoftDeleted(change.previous) === isSoftDeleted(change.value)) return [];
      const property = change.urn.text;
      const proposals: Proposal[] = [];
      for await (const { urn, value } of context.scan('formInfo')) {
        if ((value as FormInfo).prompts?.some((p) => p.structuredPropertyParams?.urn === property)) proposals.push(...(await recompute(context, [], urn, lookups)));
      }
      return proposals;
    },
  };
}

const CHUNK = 500;

/**
 * Proposals rewriting the `forms` of the given assets (or of every holder of `form`) whose
 * computed value differs from the stored one; the forms rules compute it again as it is written.
 */
async function recompute(context: ValidationContext, assets: readonly string[], form?: string, lookups?: FormLookups): Promise<Proposal[]> {
  const all = form !== undefined && lookups ? [...new Set([...assets, ...(await lookups.holders(form))])] : [...assets];
  const proposals: Proposal[] = [];
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    const stored = await context.getMany(chunk, 'forms');
    const holding = chunk.filter((a) => formUrns(stored.get(a)).length > 0);
    if (holding.length === 0) continue;
    const infos = await infosOf(context, [...new Set(holding.flatMap((a) => formUrns(stored.get(a))))]);
    const answers = await answersOf(context, holding, [...infos.values()].some(hasFieldPrompts));
    const stamp = { time: Date.now(), actor: context.actor };
    for (const asset of holding) {
      const previous = stored.get(asset) as Partial<FormsAspect>;
      const next = computeForms({ forms: formUrns(previous), previous, written: previous, infos, answers: answers.get(asset)!, stamp, asset });
      if (!jsonEqual(next, previous)) proposals.push({ urn: asset, aspect: 'forms', changeType: 'UPSERT', value: next });
    }
  }
  return proposals;
}

async function infosOf(context: ValidationContext, forms: readonly string[]): Promise<Map<string, FormInfo | undefined>> {
  return (await context.getMany(forms, 'formInfo')) as Map<string, FormInfo | undefined>;
}

function hasFieldPrompts(info: FormInfo | undefined): boolean {
  return info?.prompts?.some((p) => p.type === 'FIELDS_STRUCTURED_PROPERTY') ?? false;
}

function fieldPaths(schema: unknown): unknown {
  const fields = (schema as { fields?: { fieldPath?: unknown }[] } | undefined)?.fields;
  return Array.isArray(fields) ? fields.map((f) => f?.fieldPath) : [];
}

/** What the model's schema cannot say of a form's prompts. */
function promptShapeProblems(form: string, info: FormInfo): DomainError[] {
  const problems: DomainError[] = [];
  if (typeof info.name !== 'string' || info.name.trim() === '') problems.push(new ValidationError(`Form ${form} needs a name`));
  const seen = new Set<string>();
  for (const prompt of info.prompts ?? []) {
    if (prompt.id.trim() === '') problems.push(new ValidationError(`A prompt of form ${form} has an empty id`));
    if (prompt.title.trim() === '') problems.push(new ValidationError(`Prompt "${prompt.id}" of form ${form} needs a title`));
    if (seen.has(prompt.id)) problems.push(new ValidationError(`Form ${form} has two prompts with id "${prompt.id}": prompt ids must be unique within a form`));
    seen.add(prompt.id);
    if (!PROPERTY_PROMPTS.has(prompt.type)) {
      problems.push(new ValidationError(`Prompt "${prompt.id}" of form ${form} is of type ${prompt.type}: urnbase asks STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only`));
    } else if (!prompt.structuredPropertyParams?.urn) {
      problems.push(new ValidationError(`Prompt "${prompt.id}" of form ${form} is of type ${prompt.type} and needs structuredPropertyParams.urn`));
    }
  }
  return problems;
}

/**
 * Each prompt's property must exist, be live, and apply to the entity types the form is for (a
 * field prompt's to schema fields). The refusal names the prompt and the property.
 */
async function checkApplies(context: ValidationContext, form: string, info: FormInfo, types: readonly string[], asset?: string): Promise<void> {
  const prompts = (info.prompts ?? []).filter((p) => p.structuredPropertyParams?.urn);
  const properties = [...new Set(prompts.map((p) => p.structuredPropertyParams!.urn))];
  if (properties.length === 0) return;
  const definitions = await context.getMany(properties, 'propertyDefinition');
  const statuses = await context.getMany(properties, 'status');
  for (const prompt of prompts) {
    const property = prompt.structuredPropertyParams!.urn;
    const definition = definitions.get(property) as PropertyDefinition | undefined;
    if (!definition) throw new ValidationError(`Prompt "${prompt.id}" of form ${form} asks for Structured Property ${property}, which does not exist`);
    if (isSoftDeleted(statuses.get(property))) throw new ValidationError(`Prompt "${prompt.id}" of form ${form} asks for Structured Property ${property}, which is soft deleted`);
    const wanted = prompt.type === 'FIELDS_STRUCTURED_PROPERTY' ? ['schemaField'] : types;
    const refused = wanted.filter((type) => !definition.entityTypes?.includes(entityTypeUrn(type)));
    if (refused.length === 0) continue;
    const target = asset ?? `${refused.join(', ')} entities`;
    const applies = (definition.entityTypes ?? []).map((t) => t.replace('urn:li:entityType:datahub.', '')).join(', ') || 'no entity type';
    throw new ValidationError(`Form ${form} cannot be assigned to ${target}: its prompt "${prompt.id}" asks for Structured Property ${property}, which applies to ${applies} only`);
  }
}

