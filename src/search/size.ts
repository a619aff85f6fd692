import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import { LIMITS } from '../limits.js';
import type { QueryNode } from './query-string.js';

/**
 * A search's size, counted before anything is resolved or sent to a store: the clauses of its
 * query and the criteria of its filter, and the values they name. Past LIMITS, the search is
 * refused: thousands of criteria made a statement that ran for minutes on PostgreSQL, or that
 * SQLite refused as too large ("Expression tree is too large", "too many SQL variables").
 */
export function checkSearchSize(query: QueryNode, filter: unknown): void {
  const size = { conditions: 0, values: 0 };
  countQuery(query, size);
  countFilter(filter, size);
  if (size.conditions > LIMITS.searchConditions) {
    throw new ValidationError(`A search may have at most ${LIMITS.searchConditions} conditions (query clauses and filter criteria together); this one has ${size.conditions.toLocaleString('en-US')}`);
  }
  if (size.values > LIMITS.searchValues) {
    throw new ValidationError(`A search may name at most ${LIMITS.searchValues.toLocaleString('en-US')} values in its conditions; this one names ${size.values.toLocaleString('en-US')}`);
  }
}

interface Size {
  conditions: number;
  values: number;
}

/** Iterative: the parser bounds the depth, but counting needs no stack at all. */
function countQuery(root: QueryNode, size: Size): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.kind === 'and' || node.kind === 'or') for (const child of node.children) stack.push(child);
    else if (node.kind === 'not') stack.push(node.child);
    else if (node.kind !== 'all') {
      size.conditions++;
      size.values++;
    }
  }
}

/** The filter's shapes as criteria.ts reads them; whatever is malformed is left for it to refuse. */
function countFilter(filter: unknown, size: Size): void {
  if (!isRecord(filter)) return;
  const groups = Array.isArray(filter.and) ? filter.and : Array.isArray(filter.or) ? filter.or : Array.isArray(filter.criteria) ? [{ criteria: filter.criteria }] : [];
  for (const group of groups) {
    const list = isRecord(group) ? (Array.isArray(group.criteria) ? group.criteria : group.and) : undefined;
    if (!Array.isArray(list)) continue;
    for (const criterion of list) {
      size.conditions++;
      if (!isRecord(criterion)) continue;
      size.values += Array.isArray(criterion.values) ? criterion.values.length : criterion.value === undefined ? 0 : 1;
    }
  }
}
