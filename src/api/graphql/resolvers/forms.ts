import { isRecord } from '../../../json.js';
import { entityTypeOf } from '../../../urn/urn.js';
import type { GraphQLContext } from '../context.js';
import { FORM_HOLDERS } from '../schema-forms.js';
import { governanceResolvers } from './governance.js';

/**
 * Forms, as read: the forms an entity is assigned (its `forms` aspect, which the write path
 * computes) and the `form` entity (its formInfo and ownership). Both are read through the
 * request's EntityLoader, so a page of results is one batch read.
 */
interface EntityRef {
  urn: string;
}

type Value = Record<string, unknown>;

const list = (value: unknown): Value[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An audit stamp with its actor as a user (null when the actor is not one). */
function resolvedStamp(value: unknown) {
  if (!isRecord(value) || typeof value.time !== 'number') return null;
  const actor = text(value.actor);
  return { time: value.time, actor: actor && entityTypeOf(actor).toLowerCase() === 'corpuser' ? { urn: actor } : null };
}

function fieldPrompts(value: unknown) {
  return list(value).flatMap((f) => {
    const lastModified = resolvedStamp(f.lastModified);
    return typeof f.fieldPath === 'string' && lastModified ? [{ fieldPath: f.fieldPath, lastModified }] : [];
  });
}

function prompts(value: unknown) {
  return list(value).flatMap((p) => {
    const lastModified = resolvedStamp(p.lastModified);
    if (typeof p.id !== 'string' || !lastModified) return [];
    const fields = isRecord(p.fieldAssociations) ? p.fieldAssociations : null;
    const fieldAssociations = fields && { completedFieldPrompts: fieldPrompts(fields.completedFieldPrompts), incompleteFieldPrompts: fieldPrompts(fields.incompleteFieldPrompts) };
    return [{ id: p.id, lastModified, fieldAssociations }];
  });
}

function association(item: Value, associatedUrn: string) {
  const urn = text(item.urn) ?? '';
  return { urn, associatedUrn, incompletePrompts: prompts(item.incompletePrompts), completedPrompts: prompts(item.completedPrompts), form: { urn } };
}

async function forms(o: EntityRef, _: unknown, ctx: GraphQLContext) {
  const value = await ctx.entities.aspect(o.urn, 'forms');
  if (!value) return null;
  const assigned = (field: string) => list(value[field]).filter((item) => typeof item.urn === 'string').map((item) => association(item, o.urn));
  return {
    incompleteForms: assigned('incompleteForms'),
    completedForms: assigned('completedForms'),
    verifications: list(value.verifications)
      .filter((v) => typeof v.form === 'string')
      .map((v) => ({ form: { urn: v.form as string }, lastModified: resolvedStamp(v.lastModified) })),
  };
}

const urns = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** DataHub's default actors: the owners of each asset. */
function actors(value: unknown) {
  const given = isRecord(value) ? value : {};
  return { owners: given.owners !== false, users: urns(given.users).map((urn) => ({ urn })), groups: urns(given.groups).map((urn) => ({ urn })), groupUrns: urns(given.groups), userUrns: urns(given.users) };
}

type Actors = ReturnType<typeof actors>;

/** The caller is named in the form's users, or is a member of one of its groups (DataHub's rule: ownership does not count). */
async function isAssignedToMe(o: Actors, _: unknown, ctx: GraphQLContext): Promise<boolean> {
  const me = ctx.principal?.actor;
  if (!me) return false;
  if (o.userUrns.includes(me)) return true;
  if (o.groupUrns.length === 0) return false;
  const memberships = await Promise.all(['groupMembership', 'nativeGroupMembership'].map((a) => ctx.entities.aspect(me, a)));
  return memberships.some((m) => urns(m?.groups).some((g) => o.groupUrns.includes(g)));
}

function formInfo(value: Value, formUrn: string) {
  return {
    actors: actors(value.actors),
    name: text(value.name) ?? '',
    description: text(value.description),
    // The model's default.
    type: text(value.type) ?? 'COMPLETION',
    prompts: list(value.prompts).map((p) => {
      const property = isRecord(p.structuredPropertyParams) ? text(p.structuredPropertyParams.urn) : null;
      return {
        id: text(p.id) ?? '',
        formUrn,
        title: text(p.title) ?? '',
        description: text(p.description),
        type: text(p.type),
        structuredPropertyParams: property ? { structuredProperty: { urn: property } } : null,
        required: p.required === true,
      };
    }),
  };
}

export const formResolvers = {
  Form: {
    type: (o: EntityRef, _: unknown, ctx: GraphQLContext) => ctx.types.enumOfUrn(o.urn),
    async info(o: EntityRef, _: unknown, ctx: GraphQLContext) {
      const value = await ctx.entities.aspect(o.urn, 'formInfo');
      return value ? formInfo(value, o.urn) : null;
    },
    ownership: governanceResolvers.ownership,
  },
  FormActorAssignment: { isAssignedToMe },
  ...Object.fromEntries(FORM_HOLDERS.map((type) => [type, { forms }])),
};
