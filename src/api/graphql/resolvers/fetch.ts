import { ValidationError } from '../../../errors.js';
import { LIMITS } from '../../../limits.js';
import { parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';

/**
 * The Query fields that fetch entities by URN: one per entity type under DataHub's field name
 * (`corpUser` answers the registry's `corpuser`), and `entity`/`entities` for any type. A URN
 * that is not stored answers null, as DataHub's loaders do; a soft-deleted entity is answered
 * (its `status.removed` says so), as DataHub's reads by key do. The reads go through the
 * request's EntityLoader, so every fetch of one operation is one batched read.
 */

/** DataHub's Query field -> the registry entity type it fetches. */
export const FETCHES: Readonly<Record<string, string>> = {
  dataset: 'dataset',
  chart: 'chart',
  dashboard: 'dashboard',
  dataJob: 'dataJob',
  dataFlow: 'dataFlow',
  container: 'container',
  domain: 'domain',
  dataProduct: 'dataProduct',
  glossaryTerm: 'glossaryTerm',
  glossaryNode: 'glossaryNode',
  tag: 'tag',
  corpUser: 'corpuser',
  corpGroup: 'corpGroup',
  dataPlatform: 'dataPlatform',
  structuredProperty: 'structuredProperty',
  mlModel: 'mlModel',
  mlModelGroup: 'mlModelGroup',
  mlFeatureTable: 'mlFeatureTable',
  mlFeature: 'mlFeature',
  mlPrimaryKey: 'mlPrimaryKey',
  form: 'form',
};

/**
 * The URN's type, checked before anything is read: it must parse, name a known entity type (of
 * the expected one, when the field fetches one type) and carry a valid key. DataHub fails such
 * a URN with an unknown server error; here it is the client's mistake, BAD_REQUEST.
 */
function checkedUrn(ctx: GraphQLContext, urn: string, expected?: string): void {
  const parsed = parseUrn(urn);
  const entity = ctx.services.registry.entityOf(parsed);
  if (expected !== undefined && entity.name !== expected) throw new ValidationError(`urn: expected a ${expected} URN, got ${urn}`);
  ctx.services.registry.checkKey(parsed, entity);
}

async function fetchOne(ctx: GraphQLContext, urn: string, expected?: string): Promise<{ urn: string } | null> {
  checkedUrn(ctx, urn, expected);
  return (await ctx.entities.load(urn)) ? { urn } : null;
}

type FetchResolver = (_: unknown, args: { urn: string }, ctx: GraphQLContext) => Promise<{ urn: string } | null>;

export const fetchResolvers: Record<string, unknown> = {
  ...Object.fromEntries(Object.entries(FETCHES).map(([field, entityType]): [string, FetchResolver] => [field, (_, { urn }, ctx) => fetchOne(ctx, urn, entityType)])),
  entity: ((_, { urn }, ctx) => fetchOne(ctx, urn)) satisfies FetchResolver,
  /** The entities in the order asked, null where one is not stored (DataHub's batch answer). */
  async entities(_: unknown, { urns }: { urns: readonly string[] }, ctx: GraphQLContext) {
    if (urns.length > LIMITS.graphqlResults) {
      throw new ValidationError(`urns: at most ${LIMITS.graphqlResults.toLocaleString('en-US')} URNs may be fetched at once, got ${urns.length.toLocaleString('en-US')}`);
    }
    for (const urn of urns) checkedUrn(ctx, urn);
    return Promise.all(urns.map((urn) => fetchOne(ctx, urn)));
  },
};
