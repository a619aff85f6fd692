import { ValidationError } from '../errors.js';
import { isRecord } from '../json.js';
import { quoted } from '../limits.js';
import type { AspectSpec, Registry } from '../registry/registry.js';

/** A condition on one top-level field of a point's value. */
interface FieldTest {
  field: string;
  condition: Condition;
  values: string[];
  negated: boolean;
}

/** DataHub's Filter over points: any of the `or` clauses, each all of its tests. An empty filter matches everything. */
export type PointFilter = FieldTest[][];

const CONDITIONS = ['EQUAL', 'IN', 'EXISTS', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL_TO', 'LESS_THAN', 'LESS_THAN_OR_EQUAL_TO'] as const;
type Condition = (typeof CONDITIONS)[number];
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * DataHub's Rest.li Filter, as getTimeseriesAspectValues takes it: `{"or": [{"and": [criterion…]}]}`
 * or the older `{"criteria": [criterion…]}`, a criterion being `{field, condition (EQUAL by
 * default), value | values, negated?}`. Fields are the value's top-level scalar fields (what
 * DataHub indexes of a timeseries aspect for filtering); an unknown field or condition is refused
 * here, where DataHub's index would quietly match nothing.
 */
export function parsePointFilter(raw: unknown, aspect: AspectSpec, registry: Registry): PointFilter {
  if (raw === undefined || raw === null) return [];
  if (!isRecord(raw)) throw new ValidationError('filter must be an object: {"or": [{"and": [{"field", "condition", "values"}]}]}');
  const fields = scalarFields(aspect, registry);
  if (raw.or !== undefined) {
    if (!Array.isArray(raw.or)) throw new ValidationError('filter.or must be a list of {"and": [criterion…]}');
    return raw.or.map((clause, i) => {
      if (!isRecord(clause) || !Array.isArray(clause.and)) throw new ValidationError(`filter.or[${i}] must be {"and": [criterion…]}`);
      return clause.and.map((c, j) => criterion(c, `filter.or[${i}].and[${j}]`, aspect, fields));
    });
  }
  if (raw.criteria !== undefined) {
    if (!Array.isArray(raw.criteria)) throw new ValidationError('filter.criteria must be a list of criteria');
    return [raw.criteria.map((c, j) => criterion(c, `filter.criteria[${j}]`, aspect, fields))];
  }
  return [];
}

function criterion(raw: unknown, where: string, aspect: AspectSpec, fields: ReadonlySet<string>): FieldTest {
  if (!isRecord(raw)) throw new ValidationError(`${where} must be {"field", "condition", "value" | "values"}`);
  if (typeof raw.field !== 'string' || raw.field === '') throw new ValidationError(`${where}.field is required`);
  const field = raw.field.endsWith('.keyword') ? raw.field.slice(0, -'.keyword'.length) : raw.field;
  if (!fields.has(field)) {
    throw new ValidationError(`${where}.field ${quoted(raw.field)} is not a field of ${aspect.name} that points can be filtered on (its top-level scalar fields: ${[...fields].join(', ')})`);
  }
  const condition = raw.condition ?? 'EQUAL';
  if (typeof condition !== 'string' || !(CONDITIONS as readonly string[]).includes(condition)) {
    throw new ValidationError(`${where}.condition ${quoted(condition)} is not supported for timeseries aspects (supported: ${CONDITIONS.join(', ')})`);
  }
  const values = Array.isArray(raw.values) && raw.values.length > 0 ? raw.values : raw.value !== undefined ? [raw.value] : [];
  if (!values.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) throw new ValidationError(`${where}.values must be strings`);
  if (values.length === 0 && condition !== 'EXISTS') throw new ValidationError(`${where} needs a value or values`);
  if (raw.negated !== undefined && typeof raw.negated !== 'boolean') throw new ValidationError(`${where}.negated must be true or false`);
  return { field, condition: condition as Condition, values: values.map(String), negated: raw.negated === true };
}

/** The aspect's top-level fields whose values are scalars. */
function scalarFields(aspect: AspectSpec, registry: Registry): Set<string> {
  const properties = registry.deref(aspect.schema).properties ?? {};
  const fields = new Set<string>();
  for (const [name, schema] of Object.entries(properties)) {
    const type = registry.deref(schema).type;
    if ([type].flat().some((t) => t !== undefined && SCALARS.has(t))) fields.add(name);
  }
  return fields;
}

/** Whether a point's value passes the filter. Values compare as DataHub's index compares them: as text, numbers as numbers. */
export function matchesFilter(filter: PointFilter, value: unknown): boolean {
  if (filter.length === 0) return true;
  const record = isRecord(value) ? value : {};
  return filter.some((clause) => clause.every((test) => test.negated !== passes(test, record[test.field])));
}

function passes({ condition, values }: FieldTest, actual: unknown): boolean {
  if (condition === 'EXISTS') return actual !== undefined && actual !== null;
  if (actual === undefined || actual === null || typeof actual === 'object') return false;
  if (condition === 'EQUAL' || condition === 'IN') return values.some((v) => same(actual, v));
  const n = Number(values[0]);
  if (typeof actual !== 'number' || Number.isNaN(n)) return false;
  if (condition === 'GREATER_THAN') return actual > n;
  if (condition === 'GREATER_THAN_OR_EQUAL_TO') return actual >= n;
  if (condition === 'LESS_THAN') return actual < n;
  return actual <= n;
}

function same(actual: unknown, expected: string): boolean {
  if (typeof actual === 'number') return expected.trim() !== '' && Number(expected) === actual;
  return String(actual) === expected;
}
