import { ConflictError, ForbiddenError, ValidationError } from '../errors.js';
import type { AspectPlugin, ProposedChange, ValidationContext } from '../ingest/plugins.js';
import type { Proposal } from '../ingest/proposal.js';
import type { ReadFilter } from '../read/read.js';
import type { Store } from '../store/store.js';
import { isSoftDeleted, type StructuredPropertiesAspect } from './model.js';

/**
 * Soft delete (`status.removed=true`) hides a property's values from reads and denies new values,
 * definition updates and search filters; restoring it brings everything back. Hard delete is only
 * for soft-deleted properties and removes their values from every entity, in one transaction.
 */

/**
 * Soft-deleted properties of the given URNs. This is part of the read path itself (its filter),
 * so it reads `status` from the store: going through the Reader would recurse.
 */
async function softDeleted(store: Store, propertyUrns: readonly string[]): Promise<Set<string>> {
  if (propertyUrns.length === 0) return new Set();
  const rows = await store.getLatestMany([...new Set(propertyUrns)], ['status']);
  return new Set(rows.filter((r) => isSoftDeleted(r.value)).map((r) => r.urn));
}

/** Read-time filter for `structuredProperties`: entries of soft-deleted properties are not returned. */
export function hideSoftDeletedValues(store: Store): ReadFilter {
  return async (_urn, value) => {
    const aspect = value as StructuredPropertiesAspect;
    if (!Array.isArray(aspect?.properties) || aspect.properties.length === 0) return value;
    const hidden = await softDeleted(store, aspect.properties.map((a) => a.propertyUrn));
    return hidden.size === 0 ? value : { ...aspect, properties: aspect.properties.filter((a) => !hidden.has(a.propertyUrn)) };
  };
}

/** For search: a filter, query term or facet on a soft-deleted property is denied. */
export async function assertFilterable(store: Store, propertyUrns: readonly string[]): Promise<void> {
  const hidden = await softDeleted(store, propertyUrns);
  if (hidden.size > 0) throw new ValidationError(`Cannot filter on deleted Structured Property [${[...hidden].join(', ')}]`);
}

/** Guards and cascades the hard delete of a property (its key, i.e. the entity, or its definition). */
export const hardDeleteRules: AspectPlugin = {
  async validate(change, context) {
    if (change.value !== undefined) return [];
    const urn = change.urn.text;
    // It removes the property's values from every entity, for good: an admin's decision.
    if (!context.admin) return [new ForbiddenError(`Only an admin may hard delete a Structured Property (${urn}); soft delete it instead (status {"removed":true})`)];
    const live = (await context.get(urn, 'propertyDefinition')) !== undefined && !isSoftDeleted(await context.get(urn, 'status'));
    return live
      ? [new ConflictError(`Cannot hard delete live Structured Property ${urn}: soft delete it first (status {"removed":true})`)]
      : [];
  },
  async sideEffects(change, context) {
    return change.value === undefined ? removeValuesEverywhere(change, context) : [];
  },
};

/** One patch per entity of any type holding a value of the property, removing that entry. */
async function removeValuesEverywhere(change: ProposedChange, context: ValidationContext): Promise<Proposal[]> {
  const propertyUrn = change.urn.text;
  const pointer = `/properties/${propertyUrn.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const proposals: Proposal[] = [];
  for await (const { urn, value } of context.scan('structuredProperties')) {
    if (!(value as StructuredPropertiesAspect).properties?.some((a) => a.propertyUrn === propertyUrn)) continue;
    proposals.push({
      urn,
      aspect: 'structuredProperties',
      changeType: 'PATCH',
      patch: { patch: [{ op: 'remove', path: pointer }], arrayPrimaryKeys: { properties: ['propertyUrn'] } },
    });
  }
  return proposals;
}
