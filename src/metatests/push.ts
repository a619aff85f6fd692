import type { Proposal } from '../ingest/proposal.js';
import { jsonEqual } from '../json.js';
import type { EntityView, Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import { actionProposals } from './actions.js';
import type { EvaluatedTest, TestResult, TestResults } from './results.js';

/** Writes made by tests: the on-change trigger ignores them, so actions do not re-trigger tests. */
export const TEST_SOURCE = 'METADATA_TESTS';

/** What pushing an entity's results writes: its merged testResults and the tests' actions, as proposals. */
export class ResultPush {
  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
  ) {}

  /**
   * The entity's new testResults (if it changes) and the actions of the tests it passed or failed.
   * `named`: the tests asked for by name, whose stored results are replaced (default: all stored).
   */
  async proposals(entity: EntityView, outcome: TestResults, evaluated: readonly EvaluatedTest[], named: readonly string[] | undefined): Promise<Proposal[]> {
    const spec = this.registry.entityType(entity.entityType);
    if (!spec?.aspects.has('testResults')) return [];
    const stored = entity.aspects.get('testResults');
    const previous = (stored?.value as { passing: TestResult[]; failing: TestResult[] } | undefined) ?? { passing: [], failing: [] };
    const replaced = new Set(named ?? [...previous.passing, ...previous.failing].map((r) => r.test));
    // An unchanged (test, outcome, definition) keeps its stored entry, so re-running writes nothing.
    const keep = (r: TestResult) =>
      [...previous.passing, ...previous.failing].find((p) => p.test === r.test && p.type === r.type && p.testDefinitionMd5 === r.testDefinitionMd5) ??
      r;
    const next = {
      passing: [...previous.passing.filter((r) => !replaced.has(r.test)), ...outcome.passing.map(keep)],
      failing: [...previous.failing.filter((r) => !replaced.has(r.test)), ...outcome.failing.map(({ explanation: _, ...r }) => keep(r))],
    };
    const proposals: Proposal[] = [];
    if (!jsonEqual(next, previous) || (!stored && evaluated.length > 0)) {
      proposals.push({
        urn: entity.urn,
        aspect: 'testResults',
        changeType: 'UPSERT',
        value: next,
        ifVersionMatch: String(stored ? Number(stored.systemMetadata.version) : -1),
      });
    }
    const numeric = await this.numericProperties(evaluated.flatMap(({ test }) => [...test.definition.actions.passing, ...test.definition.actions.failing]));
    for (const { test, passed } of evaluated) {
      proposals.push(...actionProposals(entity, passed ? test.definition.actions.passing : test.definition.actions.failing, test.urn, (p) => numeric.has(p)));
    }
    return proposals;
  }

  /** Structured properties set by the actions whose value type is number (their values are doubles). */
  private async numericProperties(actions: ReadonlyArray<{ type: string; params: Record<string, string | string[]> }>): Promise<Set<string>> {
    const urns = actions
      .filter((a) => a.type === 'SET_STRUCTURED_PROPERTY')
      .map((a) => (a.params.propertyUrn ?? a.params.structuredPropertyUrn) as string);
    if (urns.length === 0) return new Set();
    const properties = await this.reader.getEntities([...new Set(urns)]);
    return new Set(
      [...properties.values()]
        .filter((p) => (p.aspects.get('propertyDefinition')?.value as { valueType?: string } | undefined)?.valueType === 'urn:li:dataType:datahub.number')
        .map((p) => p.urn),
    );
  }
}
