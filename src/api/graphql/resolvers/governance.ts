import { isRecord } from '../../../json.js';
import { entityTypeOf } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { structuredValues } from './structured.js';

/**
 * The fields many entity types share, from the aspects DataHub's governance features write: tags,
 * glossary terms, owners, the domain, the container, the subtypes, the browse path and the
 * structured property values; and the lifecycle ones, the
 * status (soft deletion) and the deprecation. Each names other entities by URN only; their own
 * fields are read when asked, in the request's batches.
 */
interface EntityRef {
  urn: string;
}

const OWNER_TYPES = new Set(['corpuser', 'corpgroup']);

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const urnAt = (item: unknown, key: string): string | undefined => (isRecord(item) && typeof item[key] === 'string' ? item[key] : undefined);

async function aspect(ctx: GraphQLContext, urn: string, name: string) {
  return ctx.entities.aspect(urn, name);
}

/** A globalTags value (an entity's, or a schema field's) as DataHub's GlobalTags; null without one. */
export function tagAssociations(value: unknown, associatedUrn: string) {
  if (!isRecord(value)) return null;
  return { tags: list(value.tags).flatMap((t) => (urnAt(t, 'tag') ? [{ tag: { urn: urnAt(t, 'tag') }, associatedUrn }] : [])) };
}

/** A glossaryTerms value (an entity's, or a schema field's) as DataHub's GlossaryTerms; null without one. */
export function termAssociations(value: unknown, associatedUrn: string) {
  if (!isRecord(value)) return null;
  return { terms: list(value.terms).flatMap((t) => (urnAt(t, 'urn') ? [{ term: { urn: urnAt(t, 'urn') }, associatedUrn }] : [])) };
}

export const governanceResolvers = {
  structuredProperties: structuredValues,
  async tags(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    return tagAssociations(await aspect(ctx, o.urn, 'globalTags'), o.urn);
  },
  async glossaryTerms(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    return termAssociations(await aspect(ctx, o.urn, 'glossaryTerms'), o.urn);
  },
  async ownership(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await aspect(ctx, o.urn, 'ownership');
    if (!value) return null;
    // DataHub's OwnerType is a user or a group; an owner of another type has no place in it.
    const owners = list(value.owners).flatMap((item) => {
      const owner = urnAt(item, 'owner');
      if (!owner || !OWNER_TYPES.has(entityTypeOf(owner).toLowerCase())) return [];
      return [{ owner: { urn: owner }, type: isRecord(item) && typeof item.type === 'string' ? item.type : null, associatedUrn: o.urn }];
    });
    return { owners };
  },
  async domain(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const first = list((await aspect(ctx, o.urn, 'domains'))?.domains).find((d): d is string => typeof d === 'string');
    return first ? { domain: { urn: first }, associatedUrn: o.urn } : null;
  },
  async container(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const container = urnAt(await aspect(ctx, o.urn, 'container'), 'container');
    return container ? { urn: container } : null;
  },
  async subTypes(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await aspect(ctx, o.urn, 'subTypes');
    return value ? { typeNames: list(value.typeNames).filter((t): t is string => typeof t === 'string') } : null;
  },
  /** The browsePathsV2 aspect: each entry's id as its name, and the entity it names, if any. */
  async browsePathV2(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await aspect(ctx, o.urn, 'browsePathsV2');
    if (!value) return null;
    return { path: list(value.path).flatMap((entry) => (isRecord(entry) && typeof entry.id === 'string' ? [{ name: entry.id, entity: urnAt(entry, 'urn') ? { urn: urnAt(entry, 'urn') } : null }] : [])) };
  },
  async status(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await aspect(ctx, o.urn, 'status');
    return value ? { removed: value.removed === true } : null;
  },
  async deprecation(o: EntityRef, _: unknown, ctx: GraphQLContext) {
    const value = await aspect(ctx, o.urn, 'deprecation');
    if (!value) return null;
    return {
      deprecated: value.deprecated === true,
      decommissionTime: typeof value.decommissionTime === 'number' ? value.decommissionTime : null,
      note: typeof value.note === 'string' ? value.note : null,
      actor: typeof value.actor === 'string' ? value.actor : null,
    };
  },
};

/** Users and groups, the two kinds of owner. */
export const ownerTypeResolvers = {
  OwnerType: {
    resolveType: (o: EntityRef) => (entityTypeOf(o.urn).toLowerCase() === 'corpuser' ? 'CorpUser' : 'CorpGroup'),
  },
};
