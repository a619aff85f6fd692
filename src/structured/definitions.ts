import { ValidationError } from '../errors.js';
import type { AspectPlugin, ProposedChange, ValidationContext } from '../ingest/plugins.js';
import { isUrn } from '../urn/urn.js';
import { isSoftDeleted, type PropertyDefinition } from './model.js';
import { formatValue, logicalType, LOGICAL_TYPES, sameValue, typeProblem } from './values.js';

const BREAKING = 'raise the version (yyyyMMddHHmmss) to make this breaking change';

/** Rules for `propertyDefinition` writes: shape, references, name collisions, and safe evolution. */
export const definitionRules: AspectPlugin = {
  // Name collisions are checked across the catalog, so definition writes take turns.
  exclusive: true,
  async validate(change, context) {
    if (change.value === undefined) return [];
    const urn = change.urn.text;
    const definition = change.value as PropertyDefinition;
    if (isSoftDeleted(await context.get(urn, 'status'))) {
      return [new ValidationError(`Cannot mutate a soft deleted Structured Property Definition: ${urn}`)];
    }
    const problems = [
      ...shapeProblems(urn, change.urn.id, definition),
      ...(await referenceProblems(urn, definition, context)),
    ];
    if (problems.length === 0 && change.previous !== undefined) {
      problems.push(...evolutionProblems(urn, change.previous as PropertyDefinition, definition));
    }
    if (problems.length === 0) problems.push(...(await collisionProblems(change, definition, context)));
    return problems.map((p) => new ValidationError(p));
  },
};

function shapeProblems(urn: string, id: string, d: PropertyDefinition): string[] {
  const problems: string[] = [];
  if (/\s/.test(id)) problems.push(`Urn ID cannot have spaces: ${urn}`);
  if (/\s/.test(d.qualifiedName)) problems.push(`Qualified names cannot have spaces: "${d.qualifiedName}"`);
  if (d.qualifiedName !== id) problems.push(`Qualified name "${d.qualifiedName}" must match the id of ${urn}`);
  if (d.version !== undefined && !/^\d{14}$/.test(d.version)) {
    problems.push(`Invalid version specified. Must match [0-9]{14} (yyyyMMddHHmmss): "${d.version}"`);
  }
  const type = logicalType(d.valueType);
  if (!type) problems.push(`Property ${urn}: valueType ${d.valueType} must be one of ${LOGICAL_TYPES.map((t) => `urn:li:dataType:datahub.${t}`).join(', ')}`);
  if (d.entityTypes.length === 0) problems.push(`Property ${urn}: entityTypes must name at least one entity type`);
  const allowedTypes = d.typeQualifier?.allowedTypes;
  if (allowedTypes !== undefined && type !== 'urn') {
    problems.push(`Property ${urn}: typeQualifier.allowedTypes is only allowed with valueType urn:li:dataType:datahub.urn`);
  }
  for (const t of allowedTypes ?? []) {
    if (!isUrn(t, 'entityType')) problems.push(`Property ${urn}: allowedType ${t} is not an entityType urn`);
  }
  if (type && d.allowedValues) {
    d.allowedValues.forEach((allowed, i) => {
      const wrongMember = type === 'number' ? !('double' in allowed.value) : !('string' in allowed.value);
      if (wrongMember) {
        problems.push(`Property ${urn}: allowed value ${formatValue(allowed.value)} must be a ${type === 'number' ? 'double' : 'string'} for valueType ${d.valueType}`);
        return;
      }
      const problem = typeProblem(urn, d, allowed.value);
      if (problem) problems.push(`${problem} (in allowedValues)`);
      if (d.allowedValues!.slice(0, i).some((earlier) => sameValue(earlier.value, allowed.value))) {
        problems.push(`Property ${urn}: allowed value ${formatValue(allowed.value)} is listed more than once`);
      }
    });
  }
  return problems;
}

/** valueType, entityTypes and allowedTypes must name entities that exist in the catalog. */
async function referenceProblems(urn: string, d: PropertyDefinition, context: ValidationContext): Promise<string[]> {
  const problems: string[] = [];
  if (logicalType(d.valueType) && (await context.get(d.valueType, 'dataTypeKey')) === undefined) {
    problems.push(`Property ${urn}: valueType ${d.valueType} does not exist`);
  }
  const entityTypes = [...new Set([...d.entityTypes, ...(d.typeQualifier?.allowedTypes ?? []).filter((t) => isUrn(t, 'entityType'))])];
  const existing = await context.getMany(entityTypes, 'entityTypeKey');
  for (const t of entityTypes) {
    if (existing.get(t) === undefined) problems.push(`Property ${urn}: entity type ${t} does not exist`);
  }
  return problems;
}

/** Narrowing changes need a higher version; widening ones are always fine. */
function evolutionProblems(urn: string, old: PropertyDefinition, d: PropertyDefinition): string[] {
  const problems: string[] = [];
  if (old.qualifiedName !== d.qualifiedName) problems.push(`Cannot change the fully qualified name of a Structured Property: ${urn}`);
  const bumped = d.version !== undefined && (old.version === undefined || d.version > old.version);
  if (bumped) return problems;
  if (old.valueType !== d.valueType) {
    problems.push(`Value type of ${urn} cannot be changed from ${old.valueType} to ${d.valueType}: ${BREAKING}`);
  }
  if ((old.cardinality ?? 'SINGLE') === 'MULTIPLE' && (d.cardinality ?? 'SINGLE') === 'SINGLE') {
    problems.push(`Cardinality of ${urn} cannot be changed from MULTIPLE to SINGLE: ${BREAKING}`);
  }
  if (d.allowedValues !== undefined) {
    if (old.allowedValues === undefined) {
      problems.push(`Cannot restrict values that were previously allowed: ${urn} had no allowedValues; ${BREAKING}`);
    } else {
      for (const { value } of old.allowedValues) {
        if (!d.allowedValues.some((a) => sameValue(a.value, value))) {
          problems.push(`Cannot restrict values that were previously allowed: ${urn} no longer allows ${formatValue(value)}; ${BREAKING}`);
        }
      }
    }
  }
  for (const t of old.entityTypes) {
    if (!d.entityTypes.includes(t)) problems.push(`Cannot remove entity type ${t} from ${urn}: ${BREAKING}`);
  }
  const oldTypes = old.typeQualifier?.allowedTypes;
  const newTypes = d.typeQualifier?.allowedTypes;
  const narrowed = newTypes !== undefined && (oldTypes === undefined ? newTypes.length > 0 : oldTypes.some((t) => !newTypes.includes(t)));
  if (narrowed) {
    problems.push(`Cannot narrow typeQualifier.allowedTypes of ${urn}: ${BREAKING}`);
  }
  return problems;
}

/** Names that differ only by `.` vs `_` share one search field, so only one may be live. */
async function collisionProblems(change: ProposedChange, d: PropertyDefinition, context: ValidationContext): Promise<string[]> {
  const field = searchFieldName(d.qualifiedName);
  const rivals: string[] = [];
  for await (const { urn, value } of context.scan('propertyDefinition')) {
    if (urn === change.urn.text || searchFieldName((value as PropertyDefinition).qualifiedName) !== field) continue;
    if (!isSoftDeleted(await context.get(urn, 'status'))) rivals.push(urn);
  }
  return rivals.map(
    (rival) =>
      `Structured property qualifiedName "${d.qualifiedName}" collides with live property ${rival}: names that differ only by '.' and '_' share the search field structuredProperties.${field}`,
  );
}

/** DataHub's search field for a property: dots become underscores. */
export function searchFieldName(qualifiedName: string): string {
  return qualifiedName.replace(/\./g, '_');
}
