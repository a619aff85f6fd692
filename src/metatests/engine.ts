import type { EntityView } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { Predicate, TestDefinition } from './definition.js';
import { resolvePath, type EntityLoader } from './paths.js';

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

/** Evaluates test definitions on entities; URN hops go through the loader (the read path). */
export class Evaluator {
  constructor(private readonly registry: Registry) {}

  async evaluate(definition: TestDefinition, entity: EntityView, loader: EntityLoader): Promise<Verdict> {
    if (!definition.types.includes(entity.entityType)) return { verdict: 'NOT_SELECTED', explanation: [] };
    if (definition.conditions && !(await this.predicate(definition.conditions, entity, loader)).ok) {
      return { verdict: 'NOT_SELECTED', explanation: [] };
    }
    const outcome = await this.predicate(definition.rules, entity, loader);
    return outcome.ok ? { verdict: 'PASS', explanation: [] } : { verdict: 'FAIL', explanation: outcome.failed };
  }

  private async predicate(node: Predicate, entity: EntityView, loader: EntityLoader): Promise<Outcome> {
    switch (node.kind) {
      case 'leaf': {
        const found = await resolvePath(this.registry, entity, node.property, loader);
        const holds = node.operator.evaluate(found, node.values);
        const leaf: FailedCondition = { condition: node.at, property: node.property, operator: node.operator.name, values: node.values, found };
        const outcome: Outcome = holds ? { ok: true, failed: [], held: [leaf] } : { ok: false, failed: [leaf], held: [] };
        return node.negate ? negate(outcome) : outcome;
      }
      case 'not':
        return negate(await this.predicate(node.child, entity, loader));
      case 'and':
      case 'or': {
        const children: Outcome[] = [];
        for (const child of node.children) children.push(await this.predicate(child, entity, loader));
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
