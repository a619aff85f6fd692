import { ValidationError } from '../../../errors.js';
import type { Proposal } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { checkResources, refuseSubResource, writer, type ResourceRef } from './mutations.js';

/**
 * setDomain, unsetDomain and batchSetDomain: each entity's domains aspect written whole (one domain, or none), as
 * DataHub's resolvers write it, with their checks and messages; nothing is written when the
 * entity is already where it is asked to be.
 */

/** Each entity's domains set to `domains`, in one write; the entities already there are left alone. */
async function writeDomains(ctx: GraphQLContext, entityUrns: readonly string[], domains: string[]): Promise<boolean> {
  const context = writer(ctx);
  const proposals: Proposal[] = [];
  for (const entityUrn of new Set(entityUrns)) {
    const current = (await ctx.services.reader.getAspect(entityUrn, 'domains'))?.value;
    const had = isRecord(current) && Array.isArray(current.domains) ? current.domains : [];
    if (JSON.stringify(had) === JSON.stringify(domains)) continue;
    const value = { ...(isRecord(current) ? current : {}), domains };
    proposals.push({ urn: entityUrn, aspect: 'domains', changeType: 'UPSERT', value });
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
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
    return writeDomains(ctx, [entityUrn], [domainUrn]);
  },
  async unsetDomain(_: unknown, { entityUrn }: { entityUrn: string }, ctx: GraphQLContext): Promise<boolean> {
    writer(ctx);
    parseUrn(entityUrn);
    // DataHub's own message here lacks its second argument (a server error); this is its wrapper's, with the reason.
    if (!(await ctx.services.reader.exists(entityUrn))) throw new ValidationError(`Failed to unset Domains for resource with entity urn ${entityUrn}. Entity does not exist.`);
    return writeDomains(ctx, [entityUrn], []);
  },
  /** Every resource put in the domain (taken out of any, when domainUrn is null), or none when one is refused. */
  async batchSetDomain(_: unknown, { input }: { input: { domainUrn?: string | null; resources: ResourceRef[] } }, ctx: GraphQLContext): Promise<boolean> {
    writer(ctx);
    const domainUrn = input.domainUrn ?? null;
    if (domainUrn !== null) {
      parseUrn(domainUrn);
      if (entityTypeOf(domainUrn) !== 'domain' || !(await ctx.services.reader.exists(domainUrn))) {
        throw new ValidationError(`Failed to validate Domain with urn ${domainUrn}. Urn does not exist.`);
      }
    }
    // A domain is the entity's: a schema field cannot be in one.
    input.resources.forEach(refuseSubResource);
    await checkResources(ctx, input.resources);
    return writeDomains(ctx, input.resources.map((ref) => ref.resourceUrn), domainUrn === null ? [] : [domainUrn]);
  },
};
