import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';

/** Criteria naming entity types rather than a search field (DataHub's `_entityType`). */
const TYPE_FIELDS = new Set(['_entityType', 'entityType', '_entityType.keyword']);

/** One OR branch of a dynamic assignment's filter, as the search service takes it. */
export interface Branch {
  types: string[];
  filter: unknown;
  /** Where each criterion of `filter` is in the branch as given. */
  positions: number[];
}

/**
 * DataHub's filter, one OR branch at a time, with its entity-type criterion (`_entityType`) taken
 * out as the branch's types: the search index keeps entity types apart rather than as a field.
 */
export function splitTypes(filter: unknown): Branch[] {
  if (!isRecord(filter)) throw new ValidationError('A dynamic form assignment needs a filter: {"or": [{"and": [{"field": …, "values": […]}]}]}');
  const groups = Array.isArray(filter.or) ? filter.or : Array.isArray(filter.and) ? filter.and : Array.isArray(filter.criteria) ? [{ and: filter.criteria }] : undefined;
  if (!groups || groups.length === 0) throw new ValidationError('A dynamic form assignment needs a filter: {"or": [{"and": [{"field": …, "values": […]}]}]}');
  return groups.map((group, g) => {
    const list = isRecord(group) ? (Array.isArray(group.and) ? group.and : group.criteria) : undefined;
    if (!Array.isArray(list)) throw new ValidationError(`filter.or[${g}] must be {"and": [criteria]}`);
    const types: string[] = [];
    const rest: unknown[] = [];
    const positions: number[] = [];
    for (const [i, c] of list.entries()) {
      if (isRecord(c) && typeof c.field === 'string' && TYPE_FIELDS.has(c.field) && c.negated !== true) {
        for (const v of criterionValues(c)) types.push(entityTypeName(String(v)));
      } else {
        rest.push(searchCriterion(c));
        positions.push(i);
      }
    }
    return { types: [...new Set(types)], filter: rest.length > 0 ? { or: [{ and: rest }] } : undefined, positions };
  });
}

function criterionValues(c: Record<string, unknown>): unknown[] {
  return Array.isArray(c.values) && c.values.length > 0 ? c.values : c.value !== undefined && c.value !== '' ? [c.value] : [];
}

/** DataHub's conditions as the search spells them (its Condition enum says START_WITH, END_WITH). */
const SEARCH_CONDITIONS: Record<string, string> = { START_WITH: 'STARTS_WITH', END_WITH: 'ENDS_WITH' };

/**
 * A stored criterion as the search service takes it: Elasticsearch's exact-match subfield
 * (`platform.keyword`, which DataHub's CLI sends) is the field itself in urnbase's index, the
 * deprecated `value` is `values`, and DataHub's condition names are the search's.
 */
function searchCriterion(c: unknown): unknown {
  if (!isRecord(c)) return c;
  const { value: _value, ...rest } = c;
  const field = typeof c.field === 'string' && c.field.endsWith('.keyword') ? c.field.slice(0, -'.keyword'.length) : c.field;
  const condition = typeof c.condition === 'string' ? (SEARCH_CONDITIONS[c.condition] ?? c.condition) : c.condition;
  return { ...rest, field, values: criterionValues(c), ...(condition !== undefined ? { condition } : {}) };
}

/** `dataset`, `DATASET` or `urn:li:entityType:datahub.dataset` → `dataset`; DATA_JOB → dataJob. */
function entityTypeName(value: string): string {
  const bare = value.startsWith('urn:li:entityType:') ? value.slice(value.lastIndexOf('.') + 1) : value;
  if (bare !== bare.toUpperCase()) return bare;
  return bare.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The branch's filter, limited to the given assets. */
export function withUrns(filter: unknown, urns: readonly string[]): unknown {
  const byUrn = { field: 'urn', values: [...urns] };
  if (filter === undefined) return { or: [{ and: [byUrn] }] };
  const branch = (filter as { or: { and: unknown[] }[] }).or[0];
  return { or: [{ and: [...branch.and, byUrn] }] };
}
