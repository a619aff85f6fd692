import { ConflictError, PreconditionError, ValidationError } from '../../../errors.js';
import { isRecord } from '../../../json.js';
import { entityTypeOf, parseUrn } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { writer } from './mutations.js';

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
 * Reads the ownership, lets `change` edit its owners, and writes it back only if the latest
 * version is still the one read; overtaken, it reads and changes again.
 */
async function rewriteOwners(ctx: GraphQLContext, resourceUrn: string, change: (owners: OwnerItem[]) => OwnerItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await rewriteOnce(ctx, resourceUrn, change);
    } catch (error) {
      if (!(error instanceof PreconditionError)) throw error;
      if (attempt >= TRIES) throw new ConflictError(`The ownership of ${resourceUrn} kept changing while it was being updated: send the mutation again`);
    }
  }
}

async function rewriteOnce(ctx: GraphQLContext, resourceUrn: string, change: (owners: OwnerItem[]) => OwnerItem[]): Promise<void> {
  const context = writer(ctx);
  const read = await ctx.services.reader.getAspect(resourceUrn, 'ownership');
  const value = isRecord(read?.value) ? read.value : {};
  const owners = (Array.isArray(value.owners) ? value.owners : []).filter(isRecord) as OwnerItem[];
  const next = change(owners);
  if (JSON.stringify(next) === JSON.stringify(owners)) return;
  const written = { ...value, owners: next, lastModified: { time: Date.now(), actor: context.actor } };
  const ifVersionMatch = read ? read.systemMetadata.version : '-1';
  await ctx.services.ingest.ingest([{ urn: resourceUrn, aspect: 'ownership', changeType: 'UPSERT', value: written, ifVersionMatch }], context);
}

async function addOwners(ctx: GraphQLContext, resourceUrn: string, inputs: readonly OwnerInput[]): Promise<boolean> {
  writer(ctx);
  await checkResource(ctx, resourceUrn);
  for (const owner of inputs) await checkOwner(ctx, owner);
  await rewriteOwners(ctx, resourceUrn, (owners) => {
    let next = owners;
    for (const input of inputs) {
      const typeUrn = input.ownershipTypeUrn ?? null;
      const entry: OwnerItem = { owner: input.ownerUrn, type: input.type ?? 'CUSTOM', ...(typeUrn ? { typeUrn } : {}), source: { type: 'MANUAL' } };
      const at = next.findIndex((item) => sameOwner(item, input.ownerUrn, typeUrn));
      // An owner already there keeps its place (DataHub's replaces it at the end; the list's order means nothing to either).
      next = at >= 0 ? next.map((item, i) => (i === at ? entry : item)) : [...next, entry];
    }
    return next;
  });
  return true;
}

interface AddOwnerInput extends OwnerInput {
  resourceUrn: string;
}

interface RemoveOwnerInput {
  ownerUrn: string;
  ownershipTypeUrn?: string | null;
  resourceUrn: string;
}

export const ownerMutations = {
  addOwner: (_: unknown, { input }: { input: AddOwnerInput }, ctx: GraphQLContext) => addOwners(ctx, input.resourceUrn, [input]),
  addOwners: (_: unknown, { input }: { input: { owners: OwnerInput[]; resourceUrn: string } }, ctx: GraphQLContext) => addOwners(ctx, input.resourceUrn, input.owners),
  async removeOwner(_: unknown, { input }: { input: RemoveOwnerInput }, ctx: GraphQLContext): Promise<boolean> {
    writer(ctx);
    parseUrn(input.ownerUrn);
    await checkResource(ctx, input.resourceUrn);
    await rewriteOwners(ctx, input.resourceUrn, (owners) => owners.filter((item) => !sameOwner(item, input.ownerUrn, input.ownershipTypeUrn)));
    return true;
  },
};
