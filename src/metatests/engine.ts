import type { EntityView } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { Predicate, TestDefinition } from './definition.js';
import { LineageLimitError } from './lineage-steps.js';
import { resolvePath, type HopTargets } from './paths.js';

/** A leaf condition that did not hold, with the values found: why a test failed. */
export interface FailedCondition {
  condition: string;
  property: string;
  operator: string;
  values: string[];
  found: unknown[];
  /** The condition held, but it sits under a `not` (or `negate`). */
  negated?: boolean;
  /** The condition could not be judged (a lineage step reached too many entities): why. */
  undecided?: string;
}

type Leaf = Extract<Predicate, { kind: 'leaf' }>;

/** A predicate's truth; undefined when it depends on a condition that could not be judged. */
type Truth = boolean | undefined;

interface Outcome {
  ok: boolean;
  /** Leaves whose result made the outcome false. */
  failed: FailedCondition[];
  /** Leaves that held (they explain the failure of an enclosing `not`). */
  held: FailedCondition[];
}

export type TestVerdict = 'PASS' | 'FAIL' | 'NOT_SELECTED';

export interface Verdict {
  verdict: TestVerdict;
  explanation: FailedCondition[];
}

/**
 * Evaluates test definitions on entities, synchronously: URN hops read HopTargets, and when one
 * was not loaded yet the verdict is undefined (load what it noted, then evaluate again).
 */
export class Evaluator {
  constructor(private readonly registry: Registry) {}

  /**
   * With `explain`, a failure lists the leaf conditions that failed and what they found. A
   * condition that cannot be judged makes what depends on it undecided (an `or` that holds
   * anyway still holds), and a test undecided on an entity fails there, with those conditions as
   * the explanation: it is never passed on part of the facts.
   */
  evaluate(definition: TestDefinition, entity: EntityView, hops: HopTargets, explain: boolean): Verdict | undefined {
    const misses = hops.misses;
    const undecided: FailedCondition[] = [];
    let verdict: TestVerdict;
    let decided = true;
    if (!definition.types.includes(entity.entityType)) verdict = 'NOT_SELECTED';
    else {
      const selected = definition.conditions ? this.holds(definition.conditions, entity, hops, undecided) : true;
      const passed = selected === true ? this.holds(definition.rules, entity, hops, undecided) : undefined;
      decided = selected !== undefined && (selected === false || passed !== undefined);
      verdict = selected === false ? 'NOT_SELECTED' : passed === true ? 'PASS' : 'FAIL';
    }
    if (hops.misses !== misses) return undefined;
    if (verdict !== 'FAIL' || !explain) return { verdict, explanation: [] };
    // Explaining walks the rules again, collecting leaves: only failures need it.
    return { verdict, explanation: decided ? this.outcome(definition.rules, entity, hops).failed : undecided };
  }

  /** Whether the predicate holds, short-circuiting; conditions that cannot be judged are noted in `undecided`. */
  private holds(node: Predicate, entity: EntityView, hops: HopTargets, undecided: FailedCondition[]): Truth {
    switch (node.kind) {
      case 'leaf': {
        const found = this.found(node, entity, hops);
        if (typeof found === 'string') {
          undecided.push({ ...leafCondition(node, []), undecided: found });
          return undefined;
        }
        return node.operator.evaluate(found, node.values) !== node.negate;
      }
      case 'not': {
        const child = this.holds(node.child, entity, hops, undecided);
        return child === undefined ? undefined : !child;
      }
      case 'and':
      case 'or': {
        // An `and` is false, an `or` true, on the first child that makes it so, judged or not the others.
        const decisive = node.kind === 'or';
        let unknown = false;
        for (const child of node.children) {
          const truth = this.holds(child, entity, hops, undecided);
          if (truth === decisive) return decisive !== node.negate;
          if (truth === undefined) unknown = true;
        }
        return unknown ? undefined : decisive === node.negate;
      }
    }
  }

  /** What the leaf's path finds, or why it cannot be judged. */
  private found(node: Leaf, entity: EntityView, hops: HopTargets): unknown[] | string {
    try {
      return resolvePath(this.registry, entity, node.path, hops);
    } catch (error) {
      if (error instanceof LineageLimitError) return error.message;
      throw error;
    }
  }

  /** The predicate's outcome with the leaves that decided it. */
  private outcome(node: Predicate, entity: EntityView, hops: HopTargets): Outcome {
    switch (node.kind) {
      case 'leaf': {
        // Only a decided failure is explained this way: a leaf that cannot be judged counts as failed.
        const found = this.found(node, entity, hops);
        const holds = typeof found !== 'string' && node.operator.evaluate(found, node.values);
        const leaf: FailedCondition = typeof found === 'string' ? { ...leafCondition(node, []), undecided: found } : leafCondition(node, found);
        const outcome: Outcome = holds ? { ok: true, failed: [], held: [leaf] } : { ok: false, failed: [leaf], held: [] };
        return node.negate ? negate(outcome) : outcome;
      }
      case 'not':
        return negate(this.outcome(node.child, entity, hops));
      case 'and':
      case 'or': {
        const children = node.children.map((child) => this.outcome(child, entity, hops));
        const ok = node.kind === 'and' ? children.every((c) => c.ok) : children.some((c) => c.ok);
        const outcome: Outcome = {
          ok,
          failed: ok ? [] : children.flatMap((c) => c.failed),
          held: children.flatMap((c) => c.held),
        };
        return node.negate ? negate(outcome) : outcome;
      }
    }
  }
}

function leafCondition(node: Leaf, found: unknown[]): FailedCondition {
  return { condition: node.at, property: node.property, operator: node.operator.name, values: node.values, found };
}

function negate(outcome: Outcome): Outcome {
  return {
    ok: !outcome.ok,
    failed: outcome.ok ? outcome.held.map((c) => ({ ...c, negated: !c.negated })) : [],
    held: outcome.failed,
  };
}
