import { ValidationError } from '../../errors.js';
import { DEGREE_BUCKETS, type DegreeBucket, type LineageFilters } from '../../graph/lineage.js';
import { platformUrn } from '../../graph/platform.js';
import type { Registry } from '../../registry/registry.js';
import type { EntityTypes } from './entity-types.js';
import { entityTypeName, type AndFilterInput, type FacetFilterInput } from './filters.js';

const SERVED_FIELDS = 'degree, platform, _entityType';

/**
 * A lineage search's types and filters as the Lineage service's filters: `degree` (1, 2, 3+, as
 * DataHub's UI and SDK send it), `platform` (or platform.keyword; URNs or names) and `_entityType`
 * (EntityType names), each EQUAL or IN. One group of criteria at most: the service filters by one
 * set of types, platforms and degrees. `undefined`: the types and filters exclude every entity.
 */
export function lineageFilters(
  types: readonly string[] | null | undefined,
  orFilters: readonly AndFilterInput[] | null | undefined,
  filters: readonly FacetFilterInput[] | null | undefined,
  entityTypes: EntityTypes,
  registry: Registry,
): LineageFilters | undefined {
  const groups = orFilters && orFilters.length > 0 ? orFilters.map((g, i) => ({ list: g.and ?? [], where: `orFilters[${i}].and` })) : filters && filters.length > 0 ? [{ list: filters, where: 'filters' }] : [];
  if (groups.length > 1) throw new ValidationError(`orFilters: lineage takes one group of criteria, got ${groups.length}`);
  let wanted = types && types.length > 0 ? new Set(types.map((t) => entityTypes.entityName(t))) : undefined;
  const platforms = new Set<string>();
  const degrees = new Set<DegreeBucket>();
  for (const [i, input] of (groups[0]?.list ?? []).entries()) {
    const where = `${groups[0].where}[${i}]`;
    const values = criterionValues(input, where);
    const field = input.field.endsWith('.keyword') ? input.field.slice(0, -'.keyword'.length) : input.field;
    if (field === 'degree') {
      for (const value of values) degrees.add(degreeOf(value, where));
    } else if (field === 'platform') {
      for (const value of values) platforms.add(platformUrn(value));
    } else if (field === '_entityType') {
      const named = new Set(values.map((value) => entityTypeName(value, where, entityTypes, registry)));
      wanted = wanted ? new Set([...wanted].filter((name) => named.has(name))) : named;
      if (wanted.size === 0) return undefined;
    } else {
      throw new ValidationError(`${where}.field: ${input.field} is not a lineage filter (served: ${SERVED_FIELDS})`);
    }
  }
  return { entityTypes: [...(wanted ?? [])], platforms: [...platforms], degrees: [...degrees] };
}

/** The values of an EQUAL or IN criterion that is not negated (negated is sometimes sent as "false"). */
function criterionValues(input: FacetFilterInput, where: string): string[] {
  const condition = input.condition ?? 'EQUAL';
  if (condition !== 'EQUAL' && condition !== 'IN') throw new ValidationError(`${where}.condition: lineage filters take EQUAL or IN, got ${condition}`);
  if (input.negated === true) throw new ValidationError(`${where}.negated: lineage filters cannot be negated`);
  const values = [...(input.values ?? (input.value === undefined || input.value === null ? [] : [input.value]))];
  if (values.length === 0) throw new ValidationError(`${where}.values: ${condition} needs a value`);
  return values;
}

function degreeOf(value: string, where: string): DegreeBucket {
  if ((DEGREE_BUCKETS as readonly string[]).includes(value)) return value as DegreeBucket;
  throw new ValidationError(`${where}.values: degree must be 1, 2 or 3+, got ${JSON.stringify(value.slice(0, 100))}`);
}
