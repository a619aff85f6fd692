import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import type { Condition, TextCondition } from '../store/search-types.js';
import type { QueryNode } from './query-string.js';
import { freeText, type FieldResolver, type Match } from './resolve.js';
import { quoted } from '../limits.js';

/**
 * A parsed query string as the conditions all results meet, among them the free words that rank
 * the results (only words every result contains can rank it: the free words of the top-level AND).
 */
export async function queryConditions(node: QueryNode, fields: FieldResolver): Promise<{ conditions: Condition[]; rank: TextCondition[] }> {
  const conjuncts = node.kind === 'and' ? node.children : [node];
  const conditions = await Promise.all(conjuncts.map((c) => fromQuery(c, fields)));
  const rank = conditions.filter((c, i): c is TextCondition => c.kind === 'text' && (conjuncts[i].kind === 'term' || conjuncts[i].kind === 'phrase'));
  return { conditions: conditions.filter((c) => c.kind !== 'all'), rank };
}

async function fromQuery(node: QueryNode, fields: FieldResolver): Promise<Condition> {
  switch (node.kind) {
    case 'all':
      return { kind: 'all' };
    case 'and':
    case 'or':
      return { kind: node.kind, children: await Promise.all(node.children.map((c) => fromQuery(c, fields))) };
    case 'not':
      return { kind: 'not', child: await fromQuery(node.child, fields) };
    case 'exists':
      return at(node.column, fields.condition(node.field, { op: 'exists' }));
    case 'range': {
      const op = ({ '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' } as const)[node.op];
      return at(node.column, fields.condition(node.field, { op, value: node.value }));
    }
    case 'term':
    case 'phrase': {
      const prefix = node.kind === 'term' && node.prefix;
      if (node.field === undefined) return freeText(node.value, node.kind === 'phrase' || !isOneWord(node.value), prefix);
      return at(node.column, fields.condition(node.field, { op: prefix ? 'prefix' : 'eq', values: [node.value], words: true }));
    }
  }
}

/** Errors about a field clause say where the clause is. */
async function at(column: number, condition: Promise<Condition>): Promise<Condition> {
  try {
    return await condition;
  } catch (error) {
    if (error instanceof ValidationError && !error.message.startsWith('Cannot filter on deleted')) {
      throw new ValidationError(`Invalid query at column ${column}: ${error.message}`);
    }
    throw error;
  }
}

/** A free word the tokenizer splits (`sales_orders`) is searched as the phrase of its parts. */
function isOneWord(value: string): boolean {
  return /^[\p{L}\p{N}]+$/u.test(value);
}

const CONDITIONS: Record<string, (values: string[]) => Match> = {
  EQUAL: (values) => ({ op: 'eq', values }),
  IN: (values) => ({ op: 'eq', values }),
  CONTAIN: (values) => ({ op: 'contains', values }),
  STARTS_WITH: (values) => ({ op: 'prefix', values }),
  ENDS_WITH: (values) => ({ op: 'suffix', values }),
  EXISTS: () => ({ op: 'exists' }),
  GREATER_THAN: (values) => ({ op: 'gt', value: single(values) }),
  GREATER_THAN_OR_EQUAL_TO: (values) => ({ op: 'gte', value: single(values) }),
  LESS_THAN: (values) => ({ op: 'lt', value: single(values) }),
  LESS_THAN_OR_EQUAL_TO: (values) => ({ op: 'lte', value: single(values) }),
};

function single(values: string[]): string {
  if (values.length !== 1) throw new ValidationError(`a comparison takes exactly one value, got ${values.length}`);
  return values[0];
}

/**
 * A scroll body's filter: `{and: [{criteria: [...]}, ...]}` (groups OR'ed, criteria in a group
 * AND'ed), or DataHub's own `{or: [{and: [...]}]}` and `{criteria: [...]}`. A criterion is
 * `{field, condition = EQUAL, values | value, negated?}`.
 */
export async function filterCondition(filter: unknown, fields: FieldResolver): Promise<Condition> {
  if (filter === undefined || filter === null) return { kind: 'all' };
  if (!isRecord(filter)) throw new ValidationError('filter must be an object: {"and": [{"criteria": [...]}]}');
  let groups: unknown[];
  let where: string;
  if (Array.isArray(filter.and)) [groups, where] = [filter.and, 'filter.and'];
  else if (Array.isArray(filter.or)) [groups, where] = [filter.or, 'filter.or'];
  else if (Array.isArray(filter.criteria)) [groups, where] = [[{ criteria: filter.criteria }], 'filter'];
  else throw new ValidationError('filter must be {"and": [{"criteria": [...]}]} (groups OR\'ed, criteria AND\'ed)');
  const children = await Promise.all(
    groups.map(async (group, g) => {
      const list = isRecord(group) ? (Array.isArray(group.criteria) ? group.criteria : group.and) : undefined;
      if (!Array.isArray(list)) throw new ValidationError(`${where}[${g}] must be {"criteria": [...]}`);
      const all = await Promise.all(list.map((c, i) => criterion(c, `${where}[${g}].criteria[${i}]`, fields)));
      // A group without criteria constrains nothing (DataHub reads an empty `and` the same way).
      if (all.length === 0) return { kind: 'all' } as Condition;
      return all.length === 1 ? all[0] : ({ kind: 'and', children: all } as Condition);
    }),
  );
  if (children.length === 0 || children.some((c) => c.kind === 'all')) return { kind: 'all' };
  return children.length === 1 ? children[0] : { kind: 'or', children };
}

async function criterion(raw: unknown, where: string, fields: FieldResolver): Promise<Condition> {
  if (!isRecord(raw) || typeof raw.field !== 'string' || raw.field === '') throw new ValidationError(`${where}.field: expected a field name`);
  const given = raw.condition ?? 'EQUAL';
  const name = typeof given === 'string' ? given.toUpperCase() : '';
  const build = Object.hasOwn(CONDITIONS, name) ? CONDITIONS[name] : undefined;
  if (!build) throw new ValidationError(`${where}.condition: unknown condition ${quoted(given)} (known: ${Object.keys(CONDITIONS).join(', ')})`);
  const values = raw.values ?? (raw.value === undefined ? [] : [raw.value]);
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    throw new ValidationError(`${where}.values: expected a list of strings`);
  }
  if (values.length === 0 && name !== 'EXISTS') throw new ValidationError(`${where}.values: ${name} needs a value`);
  if (raw.negated !== undefined && typeof raw.negated !== 'boolean') throw new ValidationError(`${where}.negated: expected true or false`);
  let condition: Condition;
  try {
    condition = await fields.condition(raw.field, build(values.map(String)));
  } catch (error) {
    if (error instanceof ValidationError && !error.message.startsWith('Cannot filter on deleted')) throw new ValidationError(`${where}: ${error.message}`);
    throw error;
  }
  return raw.negated ? { kind: 'not', child: condition } : condition;
}
