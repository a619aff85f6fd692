import jsonpatch from 'fast-json-patch';
import { can } from '../../../auth/roles.js';
import { ForbiddenError, ValidationError } from '../../../errors.js';
import type { PatchOperation } from '../../../ingest/patch.js';
import type { Proposal, WriteContext } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { checkSubResource, toggleFieldItems } from './field-labels.js';

/**
 * What every mutation shares: the role check, the write context, and the existence checks of
 * the entities named, with DataHub's messages (its LabelUtils' and AuthorizationException's).
 * Every write is a list of proposals handed to Ingest in ONE call, so a mutation writes all of
 * what it was asked or, when any part is refused, nothing.
 */

/** DataHub's AuthorizationException message, answered with its UNAUTHORIZED code (403). */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

/** The request's write context; a principal without the write permission (a viewer) is refused. */
export function writer(ctx: GraphQLContext): WriteContext {
  const principal = ctx.principal;
  if (principal && !can(principal.role, 'write')) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
  return { actor: principal?.actor ?? 'urn:li:corpuser:datahub', source: 'GRAPHQL', admin: principal?.role === 'admin' };
}

/** A resource a mutation names (DataHub's ResourceRefInput). */
export interface ResourceRef {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/** The resource of a mutation of one (its input's resourceUrn, subResourceType, subResource). */
export const one = (input: ResourceRef): ResourceRef => ({ resourceUrn: input.resourceUrn, subResourceType: input.subResourceType ?? null, subResource: input.subResource ?? null });

/** A sub-resource (a schema field) is refused where a mutation is of the entity itself (owners, domains, deprecation). */
export function refuseSubResource(ref: ResourceRef): void {
  if ((ref.subResource ?? '') !== '' || (ref.subResourceType ?? null) !== null) {
    throw new ValidationError(`Failed to update resource with urn ${ref.resourceUrn}: this mutation is of the entity itself, not of a schema field (subResource)`);
  }
}

/**
 * The resources must all exist (soft-deleted ones count, as in DataHub) before anything is
 * written, and a schema field one names (subResource) must be in its dataset's schema. Answers
 * each resource's schema field ('' when it names none), in order.
 */
export async function checkResources(ctx: GraphQLContext, refs: readonly ResourceRef[]): Promise<string[]> {
  const fields: string[] = [];
  for (const ref of refs) {
    parseUrn(ref.resourceUrn);
    if (!(await ctx.services.reader.exists(ref.resourceUrn))) {
      throw new ValidationError(`Failed to update resource with urn ${ref.resourceUrn}. Entity does not exist.`);
    }
    fields.push(await checkSubResource(ctx, ref));
  }
  return fields;
}

/** Labels (tags, terms, …) to add must be URNs of their entity type and exist. */
export async function checkLabels(ctx: GraphQLContext, urns: readonly string[], entityType: string): Promise<void> {
  for (const urn of urns) {
    parseUrn(urn);
    if (entityTypeOf(urn) !== entityType) {
      throw new ValidationError(`Failed to validate label with urn ${urn}. Urn type does not match entity type ${entityType}..`);
    }
    if (!(await ctx.services.reader.exists(urn))) throw new ValidationError(`Failed to validate label with urn ${urn}. Urn does not exist.`);
  }
}

/** Where an entity keeps labels of one kind: tags in globalTags.tags[].tag, terms in glossaryTerms.terms[].urn. */
export interface LabelAspect {
  /** The labels' entity type. */
  entityType: string;
  aspect: string;
  field: string;
  key: string;
  /** The aspect has a required audit stamp at this field, set to the writer's on each change. */
  stamp?: string;
}

/**
 * Adds (or removes) the labels on every resource (an entity, or a schema field of a dataset), in one write: all of them, or none when one is
 * refused. Removing a label that no longer exists is allowed (DataHub's rule), adding one is not.
 */
export async function changeLabels(ctx: GraphQLContext, label: LabelAspect, urns: readonly string[], resources: readonly ResourceRef[], adding: boolean): Promise<boolean> {
  const context = writer(ctx);
  const fields = await checkResources(ctx, resources);
  if (adding) await checkLabels(ctx, urns, label.entityType);
  const items = urns.map((urn) => ({ [label.key]: urn }));
  const proposals: Proposal[] = [];
  for (const [i, { resourceUrn }] of resources.entries()) {
    const field = fields[i];
    proposals.push(...(await (field === '' ? toggleItems(ctx, resourceUrn, label, items, adding, context.actor) : toggleFieldItems(ctx, resourceUrn, field, label, items, adding, context.actor))));
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
  return true;
}

/**
 * Proposals adding (or removing) keyed items of an array field of one aspect, only those that
 * would change it: a keyed JSON patch touches only the items concerned, so an item already there
 * is not added twice and concurrent writes of other items are kept.
 */
async function toggleItems(
  ctx: GraphQLContext,
  urn: string,
  { aspect, field, key, stamp }: LabelAspect,
  items: ReadonlyArray<Record<string, unknown>>,
  adding: boolean,
  actor: string,
): Promise<Proposal[]> {
  const value = (await ctx.services.reader.getAspect(urn, aspect))?.value;
  const current = isRecord(value) && Array.isArray(value[field]) ? (value[field] as unknown[]) : [];
  const present = new Set(current.map((item) => (isRecord(item) ? item[key] : undefined)));
  const ops: PatchOperation[] = items
    .filter((item) => present.has(item[key]) !== adding)
    .map((item) => {
      const path = `/${field}/${jsonpatch.escapePathComponent(String(item[key]))}`;
      return adding ? { op: 'add' as const, path, value: item } : { op: 'remove' as const, path };
    });
  if (ops.length === 0) return [];
  if (stamp) ops.push({ op: 'add', path: `/${stamp}`, value: { time: Date.now(), actor } });
  return [{ urn, aspect, changeType: 'PATCH', patch: { patch: ops, arrayPrimaryKeys: { [field]: [key] } } }];
}
