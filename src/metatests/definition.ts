import type { Registry } from '../registry/registry.js';

import { ACTION_ASPECT, ACTION_TYPES, actionProblem, type ActionType } from './action-types.js';
import { operatorNamed, type Operator } from './operators.js';
import { compilePath, pathProblem, type PropertyPath } from './paths.js';
import { isRecord } from '../json.js';
import { LIMITS, quoted } from '../limits.js';

/**
 * A metadata test's definition language: `{on:{types, conditions?}, rules, actions?}`. Predicates
 * are a JSON array (AND), `{and:[…]}`, `{or:[…]}`, `{not:…}`, or a leaf
 * `{property, operator, value|values}`; DataHub's legacy spellings (`query`, `operation`,
 * `params`, `negate`, `match`) are accepted.
 */

export type Predicate =
  | { kind: 'and' | 'or'; children: Predicate[]; negate: boolean }
  | { kind: 'not'; child: Predicate }
  | { kind: 'leaf'; property: string; path: PropertyPath; operator: Operator; values: string[]; negate: boolean; at: string };

export interface TestAction {
  type: ActionType;
  values: string[];
  params: Record<string, string | string[]>;
}

export interface TestDefinition {
  types: string[];
  conditions?: Predicate;
  rules: Predicate;
  actions: { passing: TestAction[]; failing: TestAction[] };
  /** The aspects of the tested entity that evaluation and actions read (undefined: all of them). */
  aspects?: ReadonlySet<string>;
  /**
   * The definition was `{}`: a test that selects no entity, so it never passes or fails. DataHub's
   * demo data has such tests (DataHub types the definition as a string and never reads it there).
   */
  selectsNothing?: true;
}

/** A definition that does not parse or validate; the message starts at the offending spot. */
export class DefinitionError extends Error {
  override name = 'DefinitionError';
}

const LEAF_KEYS = new Set(['property', 'query', 'operator', 'operation', 'negate', 'params']);

/** How deep and/or/not may nest: far beyond any real rule, and short of a stack overflow. */
export const MAX_PREDICATE_DEPTH = 50;

/** Parses and validates a definition (a JSON string or an already parsed object). */
export function parseDefinition(source: unknown, registry: Registry): TestDefinition {
  // Measured before anything is parsed or compiled: every leaf compiles its values (regular expressions).
  const chars = typeof source === 'string' ? source.length : (JSON.stringify(source) ?? '').length;
  if (chars > LIMITS.definitionChars) {
    throw new DefinitionError(`definition: at most ${LIMITS.definitionChars.toLocaleString('en-US')} characters of JSON; this one has ${chars.toLocaleString('en-US')}`);
  }
  let doc = source;
  if (typeof source === 'string') {
    try {
      doc = JSON.parse(source);
    } catch (error) {
      throw new DefinitionError(`definition: invalid JSON: ${(error as Error).message}`);
    }
  }
  if (isRecord(doc) && Object.keys(doc).length === 0) return selectingNothing();
  if (!isRecord(doc) || doc.on === undefined || doc.rules === undefined) {
    throw new DefinitionError('definition: must be an object with an "on" clause and a "rules" clause');
  }
  const on = doc.on;
  if (!isRecord(on) || !Array.isArray(on.types) || on.types.length === 0) {
    throw new DefinitionError('on.types: must be a non-empty list of entity types');
  }
  const types = on.types.map((t: unknown, i: number) => {
    const spec = typeof t === 'string' ? registry.entityType(t) : undefined;
    if (!spec) throw new DefinitionError(`on.types[${i}]: unknown entity type ${quoted(t)}`);
    if (!spec.aspects.has('testResults')) throw new DefinitionError(`on.types[${i}]: entity type "${spec.name}" cannot hold testResults`);
    return spec.name;
  });
  const parser = new PredicateParser(registry, types);
  const conditionsSource = on.conditions ?? on.match;
  const conditions = conditionsSource === undefined ? undefined : parser.parse(conditionsSource, on.conditions !== undefined ? 'on.conditions' : 'on.match');
  const rules = parser.parse(doc.rules, 'rules');
  const actions = parseActions(doc.actions);
  for (const side of ['passing', 'failing'] as const) {
    actions[side].forEach((action, i) => {
      const aspect = ACTION_ASPECT[action.type];
      const lacking = types.find((t) => !registry.aspectOf(registry.entityType(t)!, aspect));
      if (lacking) throw new DefinitionError(`actions.${side}[${i}]: ${action.type} writes ${aspect}, which entity type ${lacking} does not have`);
    });
  }
  const definition: TestDefinition = { types, conditions, rules, actions };
  definition.aspects = aspectsRead(registry, definition);
  return definition;
}

/** The test `{}` defines: no entity type in scope, no rules, no actions. */
function selectingNothing(): TestDefinition {
  return { types: [], rules: { kind: 'and', children: [], negate: false }, actions: { passing: [], failing: [] }, aspects: new Set(), selectsNothing: true };
}

/** Which aspects of the tested entity a definition reads, so evaluation loads only those. */
function aspectsRead(registry: Registry, definition: TestDefinition): Set<string> | undefined {
  const aspects = new Set<string>();
  const leaves = (node: Predicate): Array<Extract<Predicate, { kind: 'leaf' }>> =>
    node.kind === 'leaf' ? [node] : node.kind === 'not' ? leaves(node.child) : node.children.flatMap(leaves);
  for (const { property } of [...(definition.conditions ? leaves(definition.conditions) : []), ...leaves(definition.rules)]) {
    const first = property.split('.')[0];
    if (first === '__lastUpdated' || first === '__lastSynchronized') return undefined; // they look at every aspect
    if (first === 'schemaFields') aspects.add('schemaMetadata').add('editableSchemaMetadata');
    for (const type of definition.types) {
      const spec = registry.entityType(type)!;
      if (first === '__firstSynchronized') aspects.add(spec.keyAspect.name);
      const aspect = registry.aspectOf(spec, first);
      if (aspect) aspects.add(aspect.name);
    }
  }
  for (const action of [...definition.actions.passing, ...definition.actions.failing]) aspects.add(ACTION_ASPECT[action.type]);
  return aspects;
}

class PredicateParser {
  private predicates = 0;

  constructor(
    private readonly registry: Registry,
    private readonly types: readonly string[],
  ) {}

  parse(node: unknown, at: string, depth = 1): Predicate {
    if (depth > MAX_PREDICATE_DEPTH) throw new DefinitionError(`${at}: predicates nest deeper than ${MAX_PREDICATE_DEPTH} levels`);
    if (++this.predicates > LIMITS.definitionPredicates) throw new DefinitionError(`${at}: a definition may have at most ${LIMITS.definitionPredicates.toLocaleString('en-US')} predicates`);
    if (Array.isArray(node)) return { kind: 'and', children: node.map((c, i) => this.parse(c, `${at}[${i}]`, depth + 1)), negate: false };
    if (!isRecord(node)) throw new DefinitionError(`${at}: expected a predicate object or list`);
    const negate = this.negate(node, at);
    if ('not' in node) {
      const child: Predicate = { kind: 'not', child: this.parse(node.not, `${at}.not`, depth + 1) };
      return negate ? { kind: 'not', child } : child;
    }
    for (const kind of ['or', 'and'] as const) {
      if (kind in node) {
        const list = node[kind];
        if (!Array.isArray(list)) throw new DefinitionError(`${at}.${kind}: expected a list of predicates`);
        return { kind, children: list.map((c, i) => this.parse(c, `${at}.${kind}[${i}]`, depth + 1)), negate };
      }
    }
    return this.leaf(node, at, negate);
  }

  private negate(node: Record<string, unknown>, at: string): boolean {
    if (node.negate === undefined) return false;
    if (typeof node.negate !== 'boolean') throw new DefinitionError(`${at}.negate: expected true or false`);
    return node.negate;
  }

  private leaf(node: Record<string, unknown>, at: string, negate: boolean): Predicate {
    const property = node.property ?? node.query;
    const propertyKey = node.property !== undefined ? 'property' : 'query';
    if (typeof property !== 'string' || property === '') throw new DefinitionError(`${at}.property: expected a property path`);
    const operatorName = node.operator ?? node.operation;
    const operatorKey = node.operator !== undefined ? 'operator' : 'operation';
    if (typeof operatorName !== 'string') throw new DefinitionError(`${at}.${operatorKey}: expected an operator`);
    const operator = operatorNamed(operatorName);
    if (!operator) {
      throw new DefinitionError(`${at}.${operatorKey}: unknown operator ${quoted(operatorName)}`);
    }
    const values = this.operands(node, at);
    if (operator.binary && values.length === 0) throw new DefinitionError(`${at}: operator ${operator.name} needs a value`);
    if (!operator.binary && values.length > 0) throw new DefinitionError(`${at}: operator ${operator.name} takes no value`);
    const valueProblem = operator.checkValues?.(values);
    if (valueProblem) throw new DefinitionError(`${at}.value: ${valueProblem}`);
    if (operator.name === 'schema_fields_have_descriptions' && property !== 'schemaFields') {
      throw new DefinitionError(`${at}.${propertyKey}: schema_fields_have_descriptions applies to the property schemaFields only`);
    }
    const problem = pathProblem(this.registry, this.types, property);
    if (problem) throw new DefinitionError(`${at}.${propertyKey}: ${problem}`);
    return { kind: 'leaf', property, path: compilePath(property), operator, values, negate, at };
  }

  /** `value`, `values`, any other extra key, or legacy `params`; scalars become text. */
  private operands(node: Record<string, unknown>, at: string): string[] {
    const sources: Array<[string, unknown]> = Object.entries(node).filter(([k]) => !LEAF_KEYS.has(k));
    if (isRecord(node.params)) sources.push(...Object.entries(node.params).map(([k, v]): [string, unknown] => [`params.${k}`, v]));
    return sources.flatMap(([key, value]) => {
      const list = Array.isArray(value) ? value : [value];
      return list.map((v, i) => {
        if (typeof v === 'string') return v;
        if (typeof v === 'number' || typeof v === 'boolean') return String(v);
        throw new DefinitionError(`${at}.${key}${Array.isArray(value) ? `[${i}]` : ''}: expected a string, number or boolean`);
      });
    });
  }
}

function parseActions(node: unknown): TestDefinition['actions'] {
  const actions: TestDefinition['actions'] = { passing: [], failing: [] };
  if (node === undefined) return actions;
  if (!isRecord(node)) throw new DefinitionError('actions: expected {passing?: [...], failing?: [...]}');
  for (const side of ['passing', 'failing'] as const) {
    const list = node[side];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new DefinitionError(`actions.${side}: expected a list of actions`);
    actions[side] = list.map((raw, i) => parseAction(raw, `actions.${side}[${i}]`));
  }
  return actions;
}

function parseAction(raw: unknown, at: string): TestAction {
  if (!isRecord(raw) || typeof raw.type !== 'string') throw new DefinitionError(`${at}.type: expected an action type`);
  const type = raw.type.toUpperCase() as ActionType;
  if (!ACTION_TYPES.includes(type)) throw new DefinitionError(`${at}.type: unknown action ${quoted(raw.type)} (known: ${ACTION_TYPES.join(', ')})`);
  const source = isRecord(raw.params) ? raw.params : Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'type'));
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'string') params[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) params[key] = value as string[];
    else if (typeof value === 'number' || typeof value === 'boolean') params[key] = String(value);
    else throw new DefinitionError(`${at}.params.${key}: expected a string or a list of strings`);
  }
  const values = [params.values ?? params.value ?? []].flat();
  const problem = actionProblem(type, values, params);
  if (problem) throw new DefinitionError(`${at}: ${problem}`);
  return { type, values, params };
}
