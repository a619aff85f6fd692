import type { GraphQLContext } from '../context.js';
import { changeLabels, one, type LabelAspect, type ResourceRef } from './mutations.js';

/**
 * The glossary term mutations: entities' glossaryTerms (terms[].urn) changed as tags are, with
 * the aspect's required audit stamp set to the writer's on each change.
 */

const TERMS: LabelAspect = { entityType: 'glossaryTerm', aspect: 'glossaryTerms', field: 'terms', key: 'urn', stamp: 'auditStamp' };
const changeTerms = (ctx: GraphQLContext, termUrns: readonly string[], resources: readonly ResourceRef[], adding: boolean) => changeLabels(ctx, TERMS, termUrns, resources, adding);

type Args<T> = { input: T };
type TermAssociationInput = ResourceRef & { termUrn: string };
type AddTermsInput = ResourceRef & { termUrns: string[] };
type BatchTermsInput = { termUrns: string[]; resources: ResourceRef[] };

export const termMutations = {
  addTerm: (_: unknown, { input }: Args<TermAssociationInput>, ctx: GraphQLContext) => changeTerms(ctx, [input.termUrn], [one(input)], true),
  addTerms: (_: unknown, { input }: Args<AddTermsInput>, ctx: GraphQLContext) => changeTerms(ctx, input.termUrns, [one(input)], true),
  removeTerm: (_: unknown, { input }: Args<TermAssociationInput>, ctx: GraphQLContext) => changeTerms(ctx, [input.termUrn], [one(input)], false),
  batchAddTerms: (_: unknown, { input }: Args<BatchTermsInput>, ctx: GraphQLContext) => changeTerms(ctx, input.termUrns, input.resources, true),
  batchRemoveTerms: (_: unknown, { input }: Args<BatchTermsInput>, ctx: GraphQLContext) => changeTerms(ctx, input.termUrns, input.resources, false),
};
