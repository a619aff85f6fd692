import jsonpatch from 'fast-json-patch';
import { can } from '../../../auth/roles.js';
import { ForbiddenError, ValidationError } from '../../../errors.js';
import type { Proposal, WriteContext } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';

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

/**
 * The resources must all exist (soft-deleted ones count, as in DataHub) before anything is
 * written. A sub-resource (a schema field) is refused: mutations of schema fields are not served.
 */
export async function checkResources(ctx: GraphQLContext, refs: readonly ResourceRef[]): Promise<void> {
  for (const ref of refs) {
    if ((ref.subResource ?? '') !== '' || (ref.subResourceType ?? null) !== null) {
      throw new ValidationError(`Failed to update resource with urn ${ref.resourceUrn}: subResource (schema fields) is not supported by urnbase; tag or describe the dataset itself`);
    }
    parseUrn(ref.resourceUrn);
    if (!(await ctx.services.reader.exists(ref.resourceUrn))) {
      throw new ValidationError(`Failed to update resource with urn ${ref.resourceUrn}. Entity does not exist.`);
    }
  }
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

/**
 * Proposals adding (or removing) keyed items of an array field of one aspect, only those that
 * would change it: a keyed JSON patch touches only the items concerned, so an item already there
 * is not added twice and concurrent writes of other items are kept.
 */
export async function toggleItems(
  ctx: GraphQLContext,
  urn: string,
  aspect: string,
  field: string,
  key: string,
  items: ReadonlyArray<Record<string, unknown>>,
  adding: boolean,
): Promise<Proposal[]> {
  const value = (await ctx.services.reader.getAspect(urn, aspect))?.value;
  const current = isRecord(value) && Array.isArray(value[field]) ? (value[field] as unknown[]) : [];
  const present = new Set(current.map((item) => (isRecord(item) ? item[key] : undefined)));
  const ops = items
    .filter((item) => present.has(item[key]) !== adding)
    .map((item) => {
      const path = `/${field}/${jsonpatch.escapePathComponent(String(item[key]))}`;
      return adding ? { op: 'add' as const, path, value: item } : { op: 'remove' as const, path };
    });
  if (ops.length === 0) return [];
  return [{ urn, aspect, changeType: 'PATCH', patch: { patch: ops, arrayPrimaryKeys: { [field]: [key] } } }];
}
