import { ConflictError, PreconditionError, ValidationError } from '../../../errors.js';
import type { Proposal } from '../../../ingest/proposal.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { refuseSubResource, writer, type ResourceRef } from './mutations.js';

/**
 * The owner mutations: an entity's ownership aspect read, changed and written back as one
 * conditional write (the version read must still be the latest, else it is done again), with the actor's audit stamp
 * as lastModified. Checks and messages are DataHub's OwnerUtils', all before anything is written.
 */

interface OwnerInput {
  ownerUrn: string;
  ownerEntityType: 'CORP_USER' | 'CORP_GROUP';
  type?: string | null;
  ownershipTypeUrn?: string | null;
}

type OwnerItem = Record<string, unknown> & { owner: string; type?: string; typeUrn?: string };

const OWNER_ENTITY = { CORP_USER: 'corpuser', CORP_GROUP: 'corpGroup' } as const;

async function checkResource(ctx: GraphQLContext, resourceUrn: string): Promise<void> {
  parseUrn(resourceUrn);
  if (!(await ctx.services.reader.exists(resourceUrn))) throw new ValidationError(`Failed to change ownership for resource ${resourceUrn}. Resource does not exist.`);
}

async function checkOwner(ctx: GraphQLContext, owner: OwnerInput): Promise<void> {
  parseUrn(owner.ownerUrn);
  const actual = entityTypeOf(owner.ownerUrn);
  if (owner.ownerEntityType === 'CORP_GROUP' && actual !== OWNER_ENTITY.CORP_GROUP) {
    throw new ValidationError(`Failed to change ownership for resource(s). Expected a corp group urn, found ${owner.ownerUrn}`);
  }
  if (owner.ownerEntityType === 'CORP_USER' && actual !== OWNER_ENTITY.CORP_USER) {
    throw new ValidationError(`Failed to change ownership for resource(s). Expected a corp user urn, found ${owner.ownerUrn}.`);
  }
  if (!(await ctx.services.reader.exists(owner.ownerUrn))) {
    throw new ValidationError(`Failed to change ownership for resource(s). Owner with urn ${owner.ownerUrn} does not exist.`);
  }
  if (owner.ownershipTypeUrn != null) {
    parseUrn(owner.ownershipTypeUrn);
    if (!(await ctx.services.reader.exists(owner.ownershipTypeUrn))) {
      throw new ValidationError(`Failed to change ownership for resource(s). Custom Ownership type with urn ${owner.ownershipTypeUrn} does not exist.`);
    }
  }
  if (owner.type == null && owner.ownershipTypeUrn == null) {
    throw new ValidationError('Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.');
  }
}

/** DataHub's URN for a deprecated ownership type (`urn:li:ownershipType:__system__technical_owner`). */
const systemTypeUrn = (type: string) => `urn:li:ownershipType:__system__${type.toLowerCase()}`;

/** Whether an owner entry is the owner of that ownership type (any type when none is given), as DataHub compares them. */
function sameOwner(item: OwnerItem, ownerUrn: string, typeUrn: string | null | undefined): boolean {
  if (item.owner !== ownerUrn) return false;
  if (typeUrn == null) return true;
  if (item.typeUrn !== undefined) return item.typeUrn === typeUrn;
  return item.type !== undefined && systemTypeUrn(item.type) === typeUrn;
}

/** Tries of a rewrite whose version was overtaken by another write before it is refused as a conflict. */
const TRIES = 5;

/**
 * Reads the ownership of every resource, lets `change` edit each one's owners, and writes them
 * back in one request, only if each latest version is still the one read; overtaken, it reads
 * and changes again. One write: every resource changes, or none.
 */
async function rewriteOwners(ctx: GraphQLContext, resourceUrns: readonly string[], change: (owners: OwnerItem[]) => OwnerItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await rewriteOnce(ctx, resourceUrns, change);
    } catch (error) {
      if (!(error instanceof PreconditionError)) throw error;
      if (attempt >= TRIES) throw new ConflictError(`The ownership of ${resourceUrns.join(', ')} kept changing while it was being updated: send the mutation again`);
    }
  }
}

async function rewriteOnce(ctx: GraphQLContext, resourceUrns: readonly string[], change: (owners: OwnerItem[]) => OwnerItem[]): Promise<void> {
  const context = writer(ctx);
  const proposals: Proposal[] = [];
  for (const resourceUrn of new Set(resourceUrns)) {
    const read = await ctx.services.reader.getAspect(resourceUrn, 'ownership');
    const value = isRecord(read?.value) ? read.value : {};
    const owners = (Array.isArray(value.owners) ? value.owners : []).filter(isRecord) as OwnerItem[];
    const next = change(owners);
    if (JSON.stringify(next) === JSON.stringify(owners)) continue;
    const written = { ...value, owners: next, lastModified: { time: Date.now(), actor: context.actor } };
    const ifVersionMatch = read ? read.systemMetadata.version : '-1';
    proposals.push({ urn: resourceUrn, aspect: 'ownership', changeType: 'UPSERT', value: written, ifVersionMatch });
  }
  if (proposals.length > 0) await ctx.services.ingest.ingest(proposals, context);
}

/** The owners added to (or replaced on) each resource; every resource and owner checked first. */
async function addOwners(ctx: GraphQLContext, resourceUrns: readonly string[], inputs: readonly OwnerInput[]): Promise<boolean> {
  writer(ctx);
  for (const resourceUrn of resourceUrns) await checkResource(ctx, resourceUrn);
  for (const owner of inputs) await checkOwner(ctx, owner);
  await rewriteOwners(ctx, resourceUrns, (owners) => {
    let next = owners;
    for (const input of inputs) {
      const typeUrn = input.ownershipTypeUrn ?? null;
      const type = input.type ?? 'CUSTOM';
      const entry: OwnerItem = { owner: input.ownerUrn, type, ...(typeUrn ? { typeUrn } : {}), source: { type: 'MANUAL' } };
      // One entry per owner and type, as DataHub keys them: a type given by name is its system type's URN.
      const at = next.findIndex((item) => sameOwner(item, input.ownerUrn, typeUrn ?? systemTypeUrn(type)));
      // An owner already there keeps its place (DataHub's replaces it at the end; the list's order means nothing to either).
      next = at >= 0 ? next.map((item, i) => (i === at ? entry : item)) : [...next, entry];
    }
    return next;
  });
  return true;
}

/** The owners taken off each resource (of that ownership type only, when one is given). */
async function removeOwners(ctx: GraphQLContext, resourceUrns: readonly string[], ownerUrns: readonly string[], ownershipTypeUrn: string | null | undefined): Promise<boolean> {
  writer(ctx);
  for (const ownerUrn of ownerUrns) parseUrn(ownerUrn);
  for (const resourceUrn of resourceUrns) await checkResource(ctx, resourceUrn);
  await rewriteOwners(ctx, resourceUrns, (owners) => owners.filter((item) => !ownerUrns.some((ownerUrn) => sameOwner(item, ownerUrn, ownershipTypeUrn))));
  return true;
}

/** The resources of a batch: schema fields are not owned (DataHub's ownership is the entity's). */
function batchResources(ctx: GraphQLContext, resources: readonly ResourceRef[]): string[] {
  writer(ctx);
  for (const ref of resources) refuseSubResource(ref);
  return resources.map((ref) => ref.resourceUrn);
}

interface AddOwnerInput extends OwnerInput {
  resourceUrn: string;
}

interface RemoveOwnerInput {
  ownerUrn: string;
  ownershipTypeUrn?: string | null;
  resourceUrn: string;
}

interface BatchAddOwnersInput {
  owners: OwnerInput[];
  /** DataHub's input has it; each owner's own ownershipTypeUrn (or type) is what is written, as in DataHub. */
  ownershipTypeUrn?: string | null;
  resources: ResourceRef[];
}

interface BatchRemoveOwnersInput {
  ownerUrns: string[];
  ownershipTypeUrn?: string | null;
  resources: ResourceRef[];
}

export const ownerMutations = {
  addOwner: (_: unknown, { input }: { input: AddOwnerInput }, ctx: GraphQLContext) => addOwners(ctx, [input.resourceUrn], [input]),
  addOwners: (_: unknown, { input }: { input: { owners: OwnerInput[]; resourceUrn: string } }, ctx: GraphQLContext) => addOwners(ctx, [input.resourceUrn], input.owners),
  removeOwner: (_: unknown, { input }: { input: RemoveOwnerInput }, ctx: GraphQLContext) => removeOwners(ctx, [input.resourceUrn], [input.ownerUrn], input.ownershipTypeUrn),
  batchAddOwners: (_: unknown, { input }: { input: BatchAddOwnersInput }, ctx: GraphQLContext) => addOwners(ctx, batchResources(ctx, input.resources), input.owners),
  batchRemoveOwners: (_: unknown, { input }: { input: BatchRemoveOwnersInput }, ctx: GraphQLContext) =>
    removeOwners(ctx, batchResources(ctx, input.resources), input.ownerUrns, input.ownershipTypeUrn),
};
