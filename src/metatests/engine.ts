import type { EntityView } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { Predicate, TestDefinition } from './definition.js';
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
}

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

  /** With `explain`, a failure lists the leaf conditions that failed and what they found. */
  evaluate(definition: TestDefinition, entity: EntityView, hops: HopTargets, explain: boolean): Verdict | undefined {
    const misses = hops.misses;
    let verdict: TestVerdict;
    if (!definition.types.includes(entity.entityType)) verdict = 'NOT_SELECTED';
    else if (definition.conditions && !this.holds(definition.conditions, entity, hops)) verdict = 'NOT_SELECTED';
    else verdict = this.holds(definition.rules, entity, hops) ? 'PASS' : 'FAIL';
    if (hops.misses !== misses) return undefined;
    // Explaining walks the rules again, collecting leaves: only failures need it.
    const explanation = verdict === 'FAIL' && explain ? this.outcome(definition.rules, entity, hops).failed : [];
    return { verdict, explanation };
  }

  /** Whether the predicate holds, short-circuiting. */
  private holds(node: Predicate, entity: EntityView, hops: HopTargets): boolean {
    switch (node.kind) {
      case 'leaf':
        return node.operator.evaluate(resolvePath(this.registry, entity, node.path, hops), node.values) !== node.negate;
      case 'not':
        return !this.holds(node.child, entity, hops);
      case 'and':
        for (const child of node.children) if (!this.holds(child, entity, hops)) return node.negate;
        return !node.negate;
      case 'or':
        for (const child of node.children) if (this.holds(child, entity, hops)) return !node.negate;
        return node.negate;
    }
  }

  /** The predicate's outcome with the leaves that decided it. */
  private outcome(node: Predicate, entity: EntityView, hops: HopTargets): Outcome {
    switch (node.kind) {
      case 'leaf': {
        const found = resolvePath(this.registry, entity, node.path, hops);
        const holds = node.operator.evaluate(found, node.values);
        const leaf: FailedCondition = { condition: node.at, property: node.property, operator: node.operator.name, values: node.values, found };
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

function negate(outcome: Outcome): Outcome {
  return {
    ok: !outcome.ok,
    failed: outcome.ok ? outcome.held.map((c) => ({ ...c, negated: !c.negated })) : [],
    held: outcome.failed,
  };
}
