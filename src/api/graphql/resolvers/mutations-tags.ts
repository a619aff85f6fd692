import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../../errors.js';
import type { Proposal } from '../../../ingest/proposal.js';
import type { GraphQLContext } from '../context.js';
import { checkLabels, checkResources, toggleItems, writer, type ResourceRef } from './mutations.js';

/**
 * The tag mutations: createTag, and the tags of entities (their globalTags aspect) added and
 * removed one resource or many at a time, with DataHub's checks in DataHub's order: the role,
 * then every resource, then (when adding) every tag, before anything is written.
 */

interface CreateTagInput {
  id?: string | null;
  name: string;
  description?: string | null;
}

async function createTag(_: unknown, { input }: { input: CreateTagInput }, ctx: GraphQLContext): Promise<string> {
  const context = writer(ctx);
  const id = input.id ?? randomUUID();
  const urn = `urn:li:tag:${id}`;
  if (await ctx.services.reader.exists(urn)) throw new ValidationError('This Tag already exists!');
  const value = { name: input.name, ...(input.description != null ? { description: input.description } : {}) };
  // CREATE_ENTITY: a tag created by another request since the check above is refused, not overwritten.
  await ctx.services.ingest.ingest([{ urn, aspect: 'tagProperties', changeType: 'CREATE_ENTITY', value }], context);
  return urn;
}

/** Adds (or removes) the tags on every resource, in one write: all of them, or none when one is refused. */
async function changeTags(ctx: GraphQLContext, tagUrns: readonly string[], resources: readonly ResourceRef[], adding: boolean): Promise<boolean> {
  const context = writer(ctx);
  await checkResources(ctx, resources);
  // Removing a tag that no longer exists is allowed (DataHub's rule), adding one is not.
  if (adding) await checkLabels(ctx, tagUrns, 'tag');
  const items = tagUrns.map((tag) => ({ tag }));
  const proposals: Proposal[] = [];
  for (const { resourceUrn } of resources) proposals.push(...(await toggleItems(ctx, resourceUrn, 'globalTags', 'tags', 'tag', items, adding)));
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
  return true;
}

interface TagAssociationInput extends ResourceRef {
  tagUrn: string;
}

interface AddTagsInput extends ResourceRef {
  tagUrns: string[];
}

interface BatchTagsInput {
  tagUrns: string[];
  resources: ResourceRef[];
}

type Args<T> = { input: T };
const one = (input: ResourceRef): ResourceRef => ({ resourceUrn: input.resourceUrn, subResourceType: input.subResourceType ?? null, subResource: input.subResource ?? null });

export const tagMutations = {
  createTag,
  addTag: (_: unknown, { input }: Args<TagAssociationInput>, ctx: GraphQLContext) => changeTags(ctx, [input.tagUrn], [one(input)], true),
  addTags: (_: unknown, { input }: Args<AddTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, [one(input)], true),
  removeTag: (_: unknown, { input }: Args<TagAssociationInput>, ctx: GraphQLContext) => changeTags(ctx, [input.tagUrn], [one(input)], false),
  batchAddTags: (_: unknown, { input }: Args<BatchTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, input.resources, true),
  batchRemoveTags: (_: unknown, { input }: Args<BatchTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, input.resources, false),
};
