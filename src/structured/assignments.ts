import { ValidationError } from '../errors.js';
import type { AspectPlugin, ProposedChange, ValidationContext } from '../ingest/plugins.js';
import { jsonEqual } from '../json.js';
import { entityTypeUrn, isSoftDeleted, type Assignment, type PropertyDefinition, type StructuredPropertiesAspect } from './model.js';
import { formatValue, sameValue, typeProblem } from './values.js';

/**
 * Rules for an entity's `structuredProperties`: every assignment a write adds or changes is checked
 * against its property's definition; untouched ones are not re-validated, so an old value that a
 * later rule forbids does not block editing other properties.
 */
export const assignmentRules: AspectPlugin = {
  /**
   * A full replace keeps the stored entries of soft-deleted properties: reads hide them, so a client
   * that reads, edits and posts the list back would otherwise destroy them without knowing.
   */
  async mutate(change, context) {
    if (change.changeType === 'PATCH' || change.previous === undefined) return change.value;
    const next = change.value as StructuredPropertiesAspect;
    if (!Array.isArray(next?.properties)) return change.value;
    const kept = new Set(next.properties.map((a) => a?.propertyUrn));
    const dropped = assignments(change.previous).filter((a) => !kept.has(a.propertyUrn));
    if (dropped.length === 0) return change.value;
    const statuses = await context.getMany(dropped.map((a) => a.propertyUrn), 'status');
    const hidden = dropped.filter((a) => isSoftDeleted(statuses.get(a.propertyUrn)));
    return hidden.length === 0 ? change.value : { ...next, properties: [...next.properties, ...hidden] };
  },

  async validate(change, context) {
    const problems =
      change.value === undefined
        ? await immutabilityProblems(change, [], context)
        : [
            ...duplicateProblems(assignments(change.value)),
            ...(await valueProblems(change, context)),
            ...(await immutabilityProblems(change, assignments(change.value), context)),
          ];
    return problems.map((p) => new ValidationError(p));
  },
};

function assignments(aspect: unknown): Assignment[] {
  return (aspect as StructuredPropertiesAspect | undefined)?.properties ?? [];
}

/** Entries of `list` whose values differ in `other` (or that `other` lacks). */
function changedEntries(list: readonly Assignment[], other: readonly Assignment[]): Assignment[] {
  const byUrn = new Map(other.map((a) => [a.propertyUrn, a]));
  return list.filter((a) => !jsonEqual(byUrn.get(a.propertyUrn)?.values, a.values));
}

/** Definitions and statuses of the properties, in one batched lookup each. */
async function propertiesOf(urns: readonly string[], context: ValidationContext) {
  const [definitions, statuses] = await Promise.all([context.getMany(urns, 'propertyDefinition'), context.getMany(urns, 'status')]);
  return {
    definition: (urn: string) => definitions.get(urn) as PropertyDefinition | undefined,
    softDeleted: (urn: string) => isSoftDeleted(statuses.get(urn)),
  };
}

function duplicateProblems(list: readonly Assignment[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { propertyUrn } of list) {
    if (seen.has(propertyUrn)) problems.push(`Property: ${propertyUrn} has multiple entries`);
    seen.add(propertyUrn);
  }
  return problems;
}

async function valueProblems(change: ProposedChange, context: ValidationContext): Promise<string[]> {
  const touched = changedEntries(assignments(change.value), assignments(change.previous));
  if (touched.length === 0) return [];
  const properties = await propertiesOf(touched.map((a) => a.propertyUrn), context);
  const problems: string[] = [];
  for (const { propertyUrn, values } of touched) {
    const definition = properties.definition(propertyUrn);
    if (!definition) {
      problems.push(`Structured Property ${propertyUrn} does not exist`);
      continue;
    }
    if (properties.softDeleted(propertyUrn)) {
      problems.push(`Cannot apply a soft deleted Structured Property value: ${propertyUrn}`);
      continue;
    }
    if (!definition.entityTypes.includes(entityTypeUrn(change.entity.name))) {
      problems.push(
        `Property: ${propertyUrn} cannot be applied to entity type ${change.entity.name}; its entityTypes are [${definition.entityTypes.join(', ')}]`,
      );
      continue;
    }
    if ((definition.cardinality ?? 'SINGLE') === 'SINGLE' && values.length > 1) {
      problems.push(`Property: ${propertyUrn} has cardinality 1, but multiple values were assigned: [${values.map(formatValue).join(', ')}]`);
      continue;
    }
    for (const value of values) {
      const problem = typeProblem(propertyUrn, definition, value);
      if (problem) problems.push(problem);
      else if (definition.allowedValues && !definition.allowedValues.some((a) => sameValue(a.value, value))) {
        problems.push(
          `Property: ${propertyUrn}, value: ${formatValue(value)} should be one of [${definition.allowedValues.map((a) => formatValue(a.value)).join(', ')}]`,
        );
      }
    }
  }
  return problems;
}

/** Once assigned, values of a live immutable property cannot change or be removed (values only, not audit fields). */
async function immutabilityProblems(change: ProposedChange, next: readonly Assignment[], context: ValidationContext): Promise<string[]> {
  const changed = changedEntries(assignments(change.previous), next);
  if (changed.length === 0) return [];
  const properties = await propertiesOf(changed.map((a) => a.propertyUrn), context);
  const kept = new Set(next.map((a) => a.propertyUrn));
  return changed
    .filter((a) => properties.definition(a.propertyUrn)?.immutable === true && !properties.softDeleted(a.propertyUrn))
    .map((a) =>
      kept.has(a.propertyUrn)
        ? `Cannot mutate an immutable property: ${a.propertyUrn}`
        : `Cannot delete an immutable property: ${a.propertyUrn}`,
    );
}
