import { ValidationError } from '../../../errors.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { writer } from './mutations.js';

/**
 * setDomain and unsetDomain: the entity's domains aspect written whole (one domain, or none), as
 * DataHub's resolvers write it, with their checks and messages; nothing is written when the
 * entity is already where it is asked to be.
 */

async function writeDomains(ctx: GraphQLContext, entityUrn: string, domains: string[]): Promise<boolean> {
  const context = writer(ctx);
  const current = (await ctx.services.reader.getAspect(entityUrn, 'domains'))?.value;
  const had = isRecord(current) && Array.isArray(current.domains) ? current.domains : [];
  if (JSON.stringify(had) === JSON.stringify(domains)) return true;
  const value = { ...(isRecord(current) ? current : {}), domains };
  await ctx.services.ingest.ingest([{ urn: entityUrn, aspect: 'domains', changeType: 'UPSERT', value }], context);
  return true;
}

export const domainMutations = {
  async setDomain(_: unknown, { entityUrn, domainUrn }: { entityUrn: string; domainUrn: string }, ctx: GraphQLContext): Promise<boolean> {
    writer(ctx);
    parseUrn(entityUrn);
    parseUrn(domainUrn);
    if (entityTypeOf(domainUrn) !== 'domain' || !(await ctx.services.reader.exists(domainUrn))) {
      throw new ValidationError(`Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Domain does not exist.`);
    }
    if (!(await ctx.services.reader.exists(entityUrn))) throw new ValidationError(`Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Entity does not exist.`);
    return writeDomains(ctx, entityUrn, [domainUrn]);
  },
  async unsetDomain(_: unknown, { entityUrn }: { entityUrn: string }, ctx: GraphQLContext): Promise<boolean> {
    writer(ctx);
    parseUrn(entityUrn);
    // DataHub's own message here lacks its second argument (a server error); this is its wrapper's, with the reason.
    if (!(await ctx.services.reader.exists(entityUrn))) throw new ValidationError(`Failed to unset Domains for resource with entity urn ${entityUrn}. Entity does not exist.`);
    return writeDomains(ctx, entityUrn, []);
  },
};
