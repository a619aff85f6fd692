/**
 * A definition as the structured editor sees it, and back: `{on: {types, conditions?}, rules,
 * actions?}` with predicates built from and/or groups, negations and leaf conditions (see
 * docs/metadata-tests.md). The JSON text stays the one truth: the editor parses it at each
 * render and writes JSON back on each edit, so both views always agree. What the editor cannot
 * show faithfully (DataHub's legacy spellings, `{}`, odd shapes) is left to the JSON view, with why.
 */

export interface Leaf {
  kind: 'leaf';
  property: string;
  operator: string;
  values: string[];
  negated: boolean;
}

export interface Group {
  kind: 'group';
  op: 'and' | 'or';
  children: Condition[];
  negated: boolean;
  /** Written as a bare JSON list (an AND), as the definition had it. */
  list: boolean;
}

export type Condition = Leaf | Group;

export interface Structured {
  types: string[];
  /** The scope's conditions (`on.conditions`); none: every entity of the types. */
  conditions?: Group;
  rules: Group;
  /** `actions` and any other top-level keys, kept as they are (edited in the JSON view). */
  rest: Record<string, unknown>;
}

/** Why the JSON cannot be edited in the structured view. */
export class Unrepresentable extends Error {}

const LEGACY = ['query', 'operation', 'params', 'negate'];
const LEAF_KEYS = new Set(['property', 'operator', 'value', 'values']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The definition's structure, or Unrepresentable saying why the JSON view is needed. */
export function parseStructured(json: string): Structured {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (error) {
    throw new Unrepresentable(`The JSON does not parse (${(error as Error).message}); fix it here to edit it as conditions.`);
  }
  if (!isObject(doc)) throw new Unrepresentable('The definition is not a JSON object.');
  if (Object.keys(doc).length === 0) throw new Unrepresentable('The definition is {}: it selects nothing, and has no conditions to show.');
  const { on, rules, ...rest } = doc;
  if (!isObject(on)) throw new Unrepresentable('The definition has no "on" object.');
  const unknown = Object.keys(on).filter((k) => k !== 'types' && k !== 'conditions');
  if (unknown.length > 0) throw new Unrepresentable(`"on" has ${unknown.map((k) => `"${k}"`).join(', ')}, which only the JSON view edits.`);
  if (!Array.isArray(on.types) || !on.types.every((t) => typeof t === 'string')) throw new Unrepresentable('"on.types" is not a list of entity types.');
  if (rules === undefined) throw new Unrepresentable('The definition has no "rules".');
  const conditions = on.conditions === undefined ? undefined : asGroup(condition(on.conditions, 'on.conditions'));
  return { types: on.types as string[], conditions, rules: asGroup(condition(rules, 'rules')), rest };
}

/** A lone leaf (or a negated group) at the top becomes a one-child AND group, as the engine reads it. */
function asGroup(c: Condition): Group {
  return c.kind === 'group' && !c.negated ? c : { kind: 'group', op: 'and', children: [c], negated: false, list: false };
}

function condition(node: unknown, at: string): Condition {
  if (Array.isArray(node)) return { kind: 'group', op: 'and', children: node.map((c, i) => condition(c, `${at}[${i}]`)), negated: false, list: true };
  if (!isObject(node)) throw new Unrepresentable(`${at} is not a condition object or list.`);
  const keys = Object.keys(node);
  const legacy = keys.filter((k) => LEGACY.includes(k));
  if (legacy.length > 0) throw new Unrepresentable(`${at} uses DataHub's older spelling ${legacy.map((k) => `"${k}"`).join(', ')}; edit it here, or write it as property, operator, value and not.`);
  if (keys.length === 1 && keys[0] === 'not') {
    const inner = condition(node.not, `${at}.not`);
    if (inner.negated || (inner.kind === 'group' && inner.list)) throw new Unrepresentable(`${at} negates a negation or a bare list.`);
    return { ...inner, negated: true };
  }
  for (const op of ['and', 'or'] as const) {
    if (op in node) {
      if (keys.length !== 1 || !Array.isArray(node[op])) throw new Unrepresentable(`${at}.${op} is not a lone list of conditions.`);
      return { kind: 'group', op, children: (node[op] as unknown[]).map((c, i) => condition(c, `${at}.${op}[${i}]`)), negated: false, list: false };
    }
  }
  const odd = keys.filter((k) => !LEAF_KEYS.has(k));
  if (odd.length > 0) throw new Unrepresentable(`${at} has ${odd.map((k) => `"${k}"`).join(', ')}, which only the JSON view edits.`);
  if (typeof node.property !== 'string' || typeof node.operator !== 'string') throw new Unrepresentable(`${at} lacks a property or an operator.`);
  if (node.value !== undefined && node.values !== undefined) throw new Unrepresentable(`${at} has both "value" and "values".`);
  const given = node.values !== undefined ? node.values : node.value !== undefined ? [node.value] : [];
  if (!Array.isArray(given) || !given.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    throw new Unrepresentable(`${at} has values that are not text, numbers or booleans.`);
  }
  return { kind: 'leaf', property: node.property, operator: node.operator, values: given.map(String), negated: false };
}

/** The definition as JSON text, from its structure. */
export function writeStructured(s: Structured): string {
  const on: Record<string, unknown> = { types: s.types };
  if (s.conditions && s.conditions.children.length > 0) on.conditions = toJson(s.conditions);
  return JSON.stringify({ on, rules: toJson(s.rules), ...s.rest }, null, 2);
}

function toJson(c: Condition): unknown {
  let plain: unknown;
  if (c.kind === 'leaf') {
    const leaf: Record<string, unknown> = { property: c.property, operator: c.operator };
    if (c.values.length === 1) leaf.value = c.values[0];
    else if (c.values.length > 1) leaf.values = c.values;
    plain = leaf;
  } else {
    const children = c.children.map(toJson);
    plain = c.list && !c.negated && c.op === 'and' ? children : { [c.op]: children };
  }
  return c.negated ? { not: plain } : plain;
}

/**
 * Where a condition is in the JSON the editor writes (`rules.and[1]`, `on.conditions[0].not`), as
 * the server's messages name it: `.not` ends the path of a negated one.
 */
export function conditionPath(c: Condition, at: string): string {
  return c.negated ? `${at}.not` : at;
}

/** The path of a group's child i, from the group's own path (conditionPath). */
export function childPath(parent: Group, at: string, i: number): string {
  const base = parent.list && !parent.negated && parent.op === 'and' ? `${at}[${i}]` : `${at}.${parent.op}[${i}]`;
  return conditionPath(parent.children[i]!, base);
}

/**
 * The part of a server's message about the condition at `at` (`rules.and[1].operator: unknown
 * operator "eq"` → `operator: unknown operator "eq"`), or undefined when it is about another one.
 * Messages name the innermost spot, so a group claims only what no child of it claims.
 */
export function messageAt(message: string | undefined, at: string): string | undefined {
  if (!message || !message.startsWith(at)) return undefined;
  const rest = message.slice(at.length);
  if (rest.startsWith(': ')) return rest.slice(2);
  if (rest.startsWith('.value') || rest.startsWith('.values') || rest.startsWith('.property') || rest.startsWith('.operator')) return rest.slice(1);
  return undefined;
}

export function newLeaf(): Leaf {
  return { kind: 'leaf', property: '', operator: 'exists', values: [], negated: false };
}

export function newGroup(op: 'and' | 'or' = 'and'): Group {
  return { kind: 'group', op, children: [newLeaf()], negated: false, list: false };
}
