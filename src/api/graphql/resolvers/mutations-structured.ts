import { randomUUID } from 'node:crypto';
import jsonpatch from 'fast-json-patch';
import { ConflictError, PreconditionError, ValidationError } from '../../../errors.js';
import type { Proposal, WriteContext } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import type { AllowedValue, Assignment, PrimitiveValue, PropertyDefinition, PropertySettings } from '../../../structured/model.js';
import { sameValue } from '../../../structured/values.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { writer } from './mutations.js';
import { shapeValues } from './structured.js';

/**
 * The structured-property mutations. They build the aspects REST would be sent and hand them to
 * Ingest in one call, so the structured-property rules of the write path (src/structured/) judge
 * them exactly as they judge a REST write: types, allowed values, cardinality, entity types,
 * safe evolution of definitions, settings. What is checked here is only what the input's shape
 * says, with DataHub's messages, and the existence of what is named.
 */

interface ValueInput {
  stringValue?: string | null;
  numberValue?: number | null;
}

interface AllowedValueInput extends ValueInput {
  description?: string | null;
}

interface SettingsInput {
  isHidden?: boolean | null;
  showInSearchFilters?: boolean | null;
  showInAssetSummary?: boolean | null;
  showAsAssetBadge?: boolean | null;
  showInColumnsTable?: boolean | null;
}

interface CreateInput {
  id?: string | null;
  qualifiedName?: string | null;
  displayName?: string | null;
  description?: string | null;
  immutable?: boolean | null;
  valueType: string;
  typeQualifier?: { allowedTypes?: string[] | null } | null;
  allowedValues?: AllowedValueInput[] | null;
  cardinality?: 'SINGLE' | 'MULTIPLE' | null;
  entityTypes: string[];
  settings?: SettingsInput | null;
}

interface UpdateInput {
  urn: string;
  displayName?: string | null;
  description?: string | null;
  immutable?: boolean | null;
  typeQualifier?: { newAllowedTypes?: string[] | null } | null;
  newAllowedValues?: AllowedValueInput[] | null;
  setCardinalityAsMultiple?: boolean | null;
  newEntityTypes?: string[] | null;
  settings?: SettingsInput | null;
}

interface UpsertInput {
  assetUrn: string;
  structuredPropertyInputParams: Array<{ structuredPropertyUrn: string; values: ValueInput[] }>;
}

interface RemoveInput {
  assetUrn: string;
  structuredPropertyUrns: string[];
}

type Args<T> = { input: T };

const PROPERTY = 'structuredProperty';
const stamp = (context: WriteContext) => ({ time: Date.now(), actor: context.actor });

/** One typed member from an input that must give exactly one (DataHub's rule and message for allowed values). */
function primitive(input: ValueInput, what: string): PrimitiveValue {
  const hasString = input.stringValue != null;
  if (hasString === (input.numberValue != null)) throw new ValidationError(`Each ${what} must provide exactly one of stringValue or numberValue.`);
  return hasString ? { string: input.stringValue! } : { double: input.numberValue! };
}

const allowedValue = (input: AllowedValueInput): AllowedValue => ({
  value: primitive(input, 'allowed value'),
  ...(input.description != null ? { description: input.description } : {}),
});

/** Adds what is new to a list, in order, each once. */
const union = (list: readonly string[], added: readonly string[]) => [...new Set([...list, ...added])];

/** DataHub's rule: id and qualifiedName name the same property; either gives it, a UUID when neither does. */
function propertyId(input: CreateInput): string {
  if (input.id != null && input.qualifiedName != null && input.id !== input.qualifiedName) {
    throw new ValidationError('Qualified name and the ID of a structured property must match');
  }
  return input.qualifiedName ?? input.id ?? randomUUID();
}

/** The settings after the input's flags (only those given) are set on `current`. */
function applySettings(current: PropertySettings, input: SettingsInput): PropertySettings {
  const next: PropertySettings = { ...current };
  for (const flag of ['isHidden', 'showInSearchFilters', 'showInAssetSummary', 'showAsAssetBadge', 'showInColumnsTable'] as const) {
    if (input[flag] != null) next[flag] = input[flag]!;
  }
  // Hiding an empty value only means something when the value is shown in the summary (DataHub's rule).
  if (input.showInAssetSummary === false && next.hideInAssetSummaryWhenEmpty) next.hideInAssetSummaryWhenEmpty = false;
  return next;
}

/** The URN must be a structured property's that exists. */
async function checkProperty(ctx: GraphQLContext, urn: string, message: string): Promise<void> {
  parseUrn(urn);
  if (entityTypeOf(urn) !== PROPERTY) throw new ValidationError(`${urn} is not a structured property urn`);
  if (!(await ctx.services.reader.exists(urn))) throw new ValidationError(message);
}

/** The asset must exist (a soft-deleted one counts, as in DataHub). */
async function checkAsset(ctx: GraphQLContext, assetUrn: string): Promise<void> {
  parseUrn(assetUrn);
  if (!(await ctx.services.reader.exists(assetUrn))) throw new ValidationError(`Asset with provided urn ${assetUrn} does not exist`);
}

/** The asset's values as they read now (those of soft-deleted properties hidden). */
async function valuesOf(ctx: GraphQLContext, assetUrn: string) {
  ctx.entities.forget(assetUrn);
  const value = (await ctx.services.reader.getAspect(assetUrn, 'structuredProperties'))?.value;
  return shapeValues(assetUrn, isRecord(value) ? value : {});
}

async function createStructuredProperty(_: unknown, { input }: Args<CreateInput>, ctx: GraphQLContext) {
  const context = writer(ctx);
  const id = propertyId(input);
  const urn = `urn:li:${PROPERTY}:${id}`;
  parseUrn(urn);
  if (await ctx.services.reader.exists(urn)) throw new ValidationError('A structured property already exists with this urn');
  const now = stamp(context);
  const definition: PropertyDefinition & Record<string, unknown> = {
    qualifiedName: id,
    valueType: input.valueType,
    entityTypes: union([], input.entityTypes),
    ...(input.displayName != null ? { displayName: input.displayName } : {}),
    ...(input.description != null ? { description: input.description } : {}),
    ...(input.immutable != null ? { immutable: input.immutable } : {}),
    ...(input.typeQualifier?.allowedTypes != null ? { typeQualifier: { allowedTypes: input.typeQualifier.allowedTypes } } : {}),
    ...(input.allowedValues != null ? { allowedValues: input.allowedValues.map(allowedValue) } : {}),
    ...(input.cardinality != null ? { cardinality: input.cardinality } : {}),
    created: now,
    lastModified: now,
  };
  // CREATE_ENTITY: a property created by another request since the check above is refused, not overwritten.
  const proposals: Proposal[] = [{ urn, aspect: 'propertyDefinition', changeType: 'CREATE_ENTITY', value: definition }];
  if (input.settings != null) {
    proposals.push({ urn, aspect: 'structuredPropertySettings', changeType: 'UPSERT', value: { ...applySettings({}, input.settings), lastModified: now } });
  }
  await ctx.services.ingest.ingest(proposals, context);
  ctx.entities.forget(urn);
  return { urn };
}

/** Tries of an update whose definition was overtaken by another write before it is refused as a conflict. */
const TRIES = 5;

async function updateStructuredProperty(_: unknown, { input }: Args<UpdateInput>, ctx: GraphQLContext) {
  writer(ctx);
  await checkProperty(ctx, input.urn, 'Attempting to update a structured property with no definition aspect.');
  const allowedValues = input.newAllowedValues?.map(allowedValue);
  for (let attempt = 1; ; attempt++) {
    try {
      await updateOnce(ctx, input, allowedValues);
      ctx.entities.forget(input.urn);
      return { urn: input.urn };
    } catch (error) {
      if (!(error instanceof PreconditionError)) throw error;
      if (attempt >= TRIES) throw new ConflictError(`The structured property ${input.urn} kept changing while it was being updated: send the mutation again`);
    }
  }
}

/**
 * Reads the definition and settings, widens them as asked, and writes back only what changed,
 * each on the condition that it is still the version read. The definition rules refuse a
 * narrowing change (adding allowed values where there were none, …) as they do over REST.
 */
async function updateOnce(ctx: GraphQLContext, input: UpdateInput, allowedValues: AllowedValue[] | undefined): Promise<void> {
  const context = writer(ctx);
  const { urn } = input;
  const read = await ctx.services.reader.getAspect(urn, 'propertyDefinition');
  if (!read || !isRecord(read.value)) throw new ValidationError('Attempting to update a structured property with no definition aspect.');
  const old = read.value as unknown as PropertyDefinition & Record<string, unknown>;
  const next = { ...old };
  if (input.displayName != null) next.displayName = input.displayName;
  if (input.description != null) next.description = input.description;
  if (input.immutable != null) next.immutable = input.immutable;
  const newTypes = input.typeQualifier?.newAllowedTypes;
  if (newTypes != null) next.typeQualifier = { ...old.typeQualifier, allowedTypes: union(old.typeQualifier?.allowedTypes ?? [], newTypes) };
  if (allowedValues !== undefined) {
    // An allowed value given again replaces the one there (its description), as DataHub's patch does; new ones go last.
    const merged = [...(old.allowedValues ?? [])];
    for (const allowed of allowedValues) {
      const at = merged.findIndex((a) => sameValue(a.value, allowed.value));
      if (at >= 0) merged[at] = allowed;
      else merged.push(allowed);
    }
    next.allowedValues = merged;
  }
  if (input.setCardinalityAsMultiple === true) next.cardinality = 'MULTIPLE';
  if (input.newEntityTypes != null) next.entityTypes = union(old.entityTypes, input.newEntityTypes);

  const proposals: Proposal[] = [];
  const now = stamp(context);
  if (JSON.stringify(next) !== JSON.stringify(old)) {
    proposals.push({ urn, aspect: 'propertyDefinition', changeType: 'UPSERT', value: { ...next, lastModified: now }, ifVersionMatch: read.systemMetadata.version });
  }
  if (input.settings != null) {
    const settingsRead = await ctx.services.reader.getAspect(urn, 'structuredPropertySettings');
    const current = (isRecord(settingsRead?.value) ? settingsRead.value : {}) as PropertySettings & Record<string, unknown>;
    const settings = applySettings(current, input.settings);
    if (JSON.stringify(settings) !== JSON.stringify(current)) {
      const ifVersionMatch = settingsRead ? settingsRead.systemMetadata.version : '-1';
      proposals.push({ urn, aspect: 'structuredPropertySettings', changeType: 'UPSERT', value: { ...settings, lastModified: now }, ifVersionMatch });
    }
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
}

/**
 * One keyed patch of the asset's `structuredProperties`: each entry named is added or replaced
 * (others are untouched, and a new one goes last), the rules checking only those it changes.
 */
async function upsertStructuredProperties(_: unknown, { input }: Args<UpsertInput>, ctx: GraphQLContext) {
  const context = writer(ctx);
  await checkAsset(ctx, input.assetUrn);
  // The same property twice: the last one given wins, as in DataHub.
  const params = new Map<string, PrimitiveValue[]>();
  for (const { structuredPropertyUrn, values } of input.structuredPropertyInputParams) {
    parseUrn(structuredPropertyUrn);
    params.set(structuredPropertyUrn, values.map((v) => primitive(v, 'value')));
  }
  if (params.size > 0) {
    const read = (await ctx.services.reader.getAspect(input.assetUrn, 'structuredProperties'))?.value;
    const existing = new Map(((isRecord(read) && Array.isArray(read.properties) ? read.properties : []) as Assignment[]).map((a) => [a.propertyUrn, a as Assignment & Record<string, unknown>]));
    const now = stamp(context);
    const patch = [...params].map(([propertyUrn, values]) => ({
      op: 'add' as const,
      path: `/properties/${jsonpatch.escapePathComponent(propertyUrn)}`,
      value: { propertyUrn, values, created: existing.get(propertyUrn)?.created ?? now, lastModified: now },
    }));
    await ctx.services.ingest.ingest(
      [{ urn: input.assetUrn, aspect: 'structuredProperties', changeType: 'PATCH', patch: { patch, arrayPrimaryKeys: { properties: ['propertyUrn'] } } }],
      context,
    );
  }
  return valuesOf(ctx, input.assetUrn);
}

/** One keyed patch removing the entries (an absent one is no change; an immutable property's is refused by the rules). */
async function removeStructuredProperties(_: unknown, { input }: Args<RemoveInput>, ctx: GraphQLContext) {
  const context = writer(ctx);
  await checkAsset(ctx, input.assetUrn);
  for (const urn of input.structuredPropertyUrns) parseUrn(urn);
  const stored = await ctx.services.reader.getAspect(input.assetUrn, 'structuredProperties');
  if (stored && input.structuredPropertyUrns.length > 0) {
    const patch = input.structuredPropertyUrns.map((urn) => ({ op: 'remove' as const, path: `/properties/${jsonpatch.escapePathComponent(urn)}` }));
    await ctx.services.ingest.ingest(
      [{ urn: input.assetUrn, aspect: 'structuredProperties', changeType: 'PATCH', patch: { patch, arrayPrimaryKeys: { properties: ['propertyUrn'] } } }],
      context,
    );
  }
  return valuesOf(ctx, input.assetUrn);
}

/**
 * A soft delete (status removed=true), which any writer may do and writing removed=false undoes:
 * the values disappear from reads and the property takes no new ones. The hard delete stays an
 * admin's explicit, separate step over REST (DELETE of the soft-deleted property), so that a
 * retried mutation never destroys values for good.
 */
async function deleteStructuredProperty(_: unknown, { input }: Args<{ urn: string }>, ctx: GraphQLContext): Promise<boolean> {
  const context = writer(ctx);
  await checkProperty(ctx, input.urn, `Structured property with urn ${input.urn} does not exist`);
  await ctx.services.ingest.ingest([{ urn: input.urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }], context);
  ctx.entities.forget(input.urn);
  return true;
}

export const structuredMutations = {
  createStructuredProperty,
  updateStructuredProperty,
  upsertStructuredProperties,
  removeStructuredProperties,
  deleteStructuredProperty,
};
