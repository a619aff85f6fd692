import { ValidationError } from '../../errors.js';
import type { Registry } from '../../registry/registry.js';
import type { EntityTypes } from './entity-types.js';

/** A FacetFilterInput as graphql-js hands it over (enums as their names). */
export interface FacetFilterInput {
  field: string;
  value?: string | null;
  values?: readonly string[] | null;
  negated?: boolean | null;
  condition?: string | null;
}

export interface AndFilterInput {
  and?: readonly FacetFilterInput[] | null;
}

/** DataHub's FilterOperator as the search's criterion conditions spell it; absent: not served. */
const CONDITIONS: Record<string, string | undefined> = {
  EQUAL: 'EQUAL',
  IN: 'IN',
  CONTAIN: 'CONTAIN',
  EXISTS: 'EXISTS',
  START_WITH: 'STARTS_WITH',
  END_WITH: 'ENDS_WITH',
  GREATER_THAN: 'GREATER_THAN',
  GREATER_THAN_OR_EQUAL_TO: 'GREATER_THAN_OR_EQUAL_TO',
  LESS_THAN: 'LESS_THAN',
  LESS_THAN_OR_EQUAL_TO: 'LESS_THAN_OR_EQUAL_TO',
};

const SERVED = Object.keys(CONDITIONS).join(', ');

interface Criterion {
  field: string;
  condition: string;
  values: string[];
  negated: boolean;
}

/**
 * GraphQL's filters as the search service's filter (`{or: [{and: [criteria]}]}`, search/criteria.ts):
 * orFilters when given, else the deprecated `filters` as one group, as DataHub reads them. Field
 * names DataHub's clients send are put in the search's terms here: `platform.keyword` is
 * `platform`, and `_entityType` (an entity type) is the URN's prefix.
 */
export function searchFilter(
  orFilters: readonly AndFilterInput[] | null | undefined,
  filters: readonly FacetFilterInput[] | null | undefined,
  types: EntityTypes,
  registry: Registry,
): unknown {
  const groups = orFilters && orFilters.length > 0 ? orFilters.map((g, i) => ({ list: g.and ?? [], where: `orFilters[${i}].and` })) : filters && filters.length > 0 ? [{ list: filters, where: 'filters' }] : [];
  if (groups.length === 0) return undefined;
  return { or: groups.map(({ list, where }) => ({ and: list.map((f, i) => criterion(f, `${where}[${i}]`, types, registry)) })) };
}

function criterion(input: FacetFilterInput, where: string, types: EntityTypes, registry: Registry): Criterion {
  const given = input.condition ?? 'EQUAL';
  const condition = CONDITIONS[given];
  if (condition === undefined) throw new ValidationError(`${where}.condition: ${given} is not supported (supported: ${SERVED})`);
  const values = [...(input.values ?? (input.value === undefined || input.value === null ? [] : [input.value]))];
  const negated = input.negated ?? false;
  if (input.field === '_entityType') return entityTypeCriterion(values, condition, negated, where, types, registry);
  // Elasticsearch's exact-match subfield: urnbase's keyword fields match exactly already.
  const field = input.field.endsWith('.keyword') ? input.field.slice(0, -'.keyword'.length) : input.field;
  return { field, condition, values, negated };
}

/** `_entityType` EQUAL DATASET: the entities whose URN is `urn:li:dataset:…`. */
function entityTypeCriterion(values: string[], condition: string, negated: boolean, where: string, types: EntityTypes, registry: Registry): Criterion {
  if (condition === 'EXISTS') return { field: 'urn', condition, values: [], negated };
  if (condition !== 'EQUAL' && condition !== 'IN') throw new ValidationError(`${where}.condition: _entityType takes EQUAL or IN, got ${condition}`);
  if (values.length === 0) throw new ValidationError(`${where}.values: ${condition} needs a value`);
  const prefixes = values.map((value) => `urn:li:${entityTypeName(value, where, types, registry)}:`);
  return { field: 'urn', condition: 'STARTS_WITH', values: prefixes, negated };
}

/** The registry name of an `_entityType` value: the enum's names (DATASET) as DataHub's clients send them, or the registry's (dataset). */
export function entityTypeName(value: string, where: string, types: EntityTypes, registry: Registry): string {
  const spec = registry.entityType(types.enumValues().includes(value) ? types.entityName(value) : value);
  if (!spec) throw new ValidationError(`${where}.values: unknown entity type ${value}`);
  return spec.name;
}

/**
 * The search's messages name a criterion by its place in its own filter shape
 * (`filter.or[0].criteria[1]`); here they name it as the GraphQL input does.
 */
export function inputPlace(message: string, filters: { orFilters: boolean }): string {
  return message.replace(/^filter\.or\[(\d+)\]\.criteria\[(\d+)\]/, (_, g: string, i: string) => (filters.orFilters ? `orFilters[${g}].and[${i}]` : `filters[${i}]`));
}
