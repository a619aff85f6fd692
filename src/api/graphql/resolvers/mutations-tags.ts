import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../../errors.js';
import type { GraphQLContext } from '../context.js';
import { changeLabels, one, writer, type LabelAspect, type ResourceRef } from './mutations.js';

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

const TAGS: LabelAspect = { entityType: 'tag', aspect: 'globalTags', field: 'tags', key: 'tag' };
const changeTags = (ctx: GraphQLContext, tagUrns: readonly string[], resources: readonly ResourceRef[], adding: boolean) => changeLabels(ctx, TAGS, tagUrns, resources, adding);

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

export const tagMutations = {
  createTag,
  addTag: (_: unknown, { input }: Args<TagAssociationInput>, ctx: GraphQLContext) => changeTags(ctx, [input.tagUrn], [one(input)], true),
  addTags: (_: unknown, { input }: Args<AddTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, [one(input)], true),
  removeTag: (_: unknown, { input }: Args<TagAssociationInput>, ctx: GraphQLContext) => changeTags(ctx, [input.tagUrn], [one(input)], false),
  batchAddTags: (_: unknown, { input }: Args<BatchTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, input.resources, true),
  batchRemoveTags: (_: unknown, { input }: Args<BatchTagsInput>, ctx: GraphQLContext) => changeTags(ctx, input.tagUrns, input.resources, false),
};
