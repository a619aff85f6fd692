import { ValidationError } from '../../../errors.js';
import type { Proposal } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import { entityDeletion } from '../../entity-writes.js';
import type { GraphQLContext } from '../context.js';
import { checkResources, one, refuseSubResource, writer, type ResourceRef } from './mutations.js';

/**
 * The end of an entity's life, as DataHub's resolvers serve it: the hard deletes of tags, domains
 * and glossary entities (the key's DELETE, the path the REST entity delete takes: every aspect,
 * its history and its edges go), the soft delete (status.removed), and deprecation.
 *
 * References to a deleted entity (a dataset's tag, its domain) are NOT removed: DataHub removes
 * them later, asynchronously, and urnbase leaves them, as it does on its REST delete; the
 * dangling URN names an entity that no longer exists, and re-creating it brings them back.
 */

/** The REST delete's proposals (the key's DELETE) for an entity of type `type`; false when there is none (nothing written). */
async function hardDelete(ctx: GraphQLContext, urnText: string, type: string, label: string): Promise<boolean> {
  const context = writer(ctx);
  parseUrn(urnText);
  if (entityTypeOf(urnText) !== type) throw new ValidationError(`Failed to delete ${urnText}: it is not the URN of a ${label}`);
  if (!(await ctx.services.reader.exists(urnText))) return false;
  const { urn, entity } = ctx.services.reader.entityOf(urnText);
  await ctx.services.ingest.ingest(await entityDeletion(ctx.services.reader, urn, entity, undefined, false), context);
  return true;
}

type UrnArgs = { urn: string };

async function deleteTag(_: unknown, { urn }: UrnArgs, ctx: GraphQLContext): Promise<boolean> {
  // As DataHub's: deleting a tag that is not there answers true.
  await hardDelete(ctx, urn, 'tag', 'tag');
  return true;
}

async function deleteDomain(_: unknown, { urn }: UrnArgs, ctx: GraphQLContext): Promise<boolean> {
  writer(ctx);
  parseUrn(urn);
  const children = await ctx.services.relationships.page({ destinations: [urn], types: ['IsPartOf'], sourceTypes: ['domain'], includeRemoved: true }, 0, 1);
  if (children.total > 0) throw new ValidationError(`Cannot delete domain ${urn} which has child domains`);
  await hardDelete(ctx, urn, 'domain', 'domain');
  return true;
}

async function deleteGlossaryEntity(_: unknown, { urn }: UrnArgs, ctx: GraphQLContext): Promise<boolean> {
  writer(ctx);
  parseUrn(urn);
  const type = entityTypeOf(urn);
  const label = type === 'glossaryNode' ? 'glossaryNode' : 'glossaryTerm';
  if (!(await hardDelete(ctx, urn, label, 'glossary term or node'))) throw new ValidationError(`This urn does not exist: ${urn}`);
  return true;
}

/** status.removed set on every entity, or on none when one is refused; those already so are left alone. */
async function batchUpdateSoftDeleted(_: unknown, { input }: { input: { urns: string[]; deleted: boolean } }, ctx: GraphQLContext): Promise<boolean> {
  const context = writer(ctx);
  for (const urn of input.urns) {
    parseUrn(urn);
    if (!(await ctx.services.reader.exists(urn))) throw new ValidationError(`Failed to soft delete entity with urn ${urn}. Entity does not exist.`);
  }
  const proposals: Proposal[] = [];
  for (const urn of new Set(input.urns)) {
    const status = (await ctx.services.reader.getAspect(urn, 'status'))?.value;
    if (isRecord(status) && (status.removed ?? false) === input.deleted) continue;
    proposals.push({ urn, aspect: 'status', changeType: 'PATCH', patch: { patch: [{ op: 'add', path: '/removed', value: input.deleted }] } });
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
  return true;
}

interface DeprecationFields {
  deprecated: boolean;
  decommissionTime?: number | null;
  note?: string | null;
  replacement?: string | null;
}

/** Each resource's deprecation aspect written whole, by the actor, in one write. */
async function writeDeprecation(ctx: GraphQLContext, urns: readonly string[], input: DeprecationFields): Promise<boolean> {
  const context = writer(ctx);
  if (input.replacement != null) parseUrn(input.replacement);
  const proposals: Proposal[] = [];
  for (const urn of new Set(urns)) {
    const current = (await ctx.services.reader.getAspect(urn, 'deprecation'))?.value;
    const { decommissionTime: _time, replacement: _replacement, ...kept } = isRecord(current) ? current : {};
    const value = {
      ...kept,
      deprecated: input.deprecated,
      // The note is required by the aspect: an empty one when none is given, as DataHub writes it.
      note: input.note ?? '',
      actor: context.actor,
      ...(input.decommissionTime != null ? { decommissionTime: input.decommissionTime } : {}),
      ...(input.replacement != null ? { replacement: input.replacement } : {}),
    };
    proposals.push({ urn, aspect: 'deprecation', changeType: 'UPSERT', value });
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
  return true;
}

async function updateDeprecation(_: unknown, { input }: { input: DeprecationFields & { urn: string; subResourceType?: string | null; subResource?: string | null } }, ctx: GraphQLContext): Promise<boolean> {
  writer(ctx);
  const ref: ResourceRef = one({ resourceUrn: input.urn, subResourceType: input.subResourceType, subResource: input.subResource });
  parseUrn(input.urn);
  if (!(await ctx.services.reader.exists(input.urn))) throw new ValidationError(`Failed to update deprecation for Entity ${input.urn}. Entity does not exist.`);
  // Deprecation is the entity's: a schema field has none.
  refuseSubResource(ref);
  await checkResources(ctx, [ref]);
  return writeDeprecation(ctx, [input.urn], input);
}

async function batchUpdateDeprecation(_: unknown, { input }: { input: DeprecationFields & { resources: ResourceRef[] } }, ctx: GraphQLContext): Promise<boolean> {
  writer(ctx);
  input.resources.forEach(refuseSubResource);
  await checkResources(ctx, input.resources);
  return writeDeprecation(ctx, input.resources.map((ref) => ref.resourceUrn), input);
}

export const deleteMutations = { deleteTag, deleteDomain, deleteGlossaryEntity, batchUpdateSoftDeleted, updateDeprecation, batchUpdateDeprecation };
