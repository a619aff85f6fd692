import { NotFoundError, PreconditionError } from '../errors.js';
import type { LineageNeighbours } from '../graph/neighbours.js';
import type { Ingest } from '../ingest/ingest.js';
import type { Proposal } from '../ingest/proposal.js';
import type { EntityView, Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { LoadedTest } from './catalog.js';
import type { TestDefinition } from './definition.js';
import { Evaluator, type Verdict } from './engine.js';
import { LoadedHops } from './hops.js';
import { ResultPush, TEST_SOURCE } from './push.js';
import type { EvaluatedTest, TestResult, TestResults } from './results.js';
import { verdicts } from './verdicts.js';

export interface EvaluateOptions {
  /** Exactly these tests (run even when INACTIVE or on-demand); default: the active scheduled ones. */
  tests?: readonly string[];
  push: boolean;
  actor: string;
  /** Skip entities that do not exist (instead of answering 404). */
  skipMissing?: boolean;
}

const PUSH_ATTEMPTS = 5;

/**
 * Evaluates a batch of entities on loaded tests and, with push, writes every entity's results and
 * the tests' actions in ONE ingest call (testResults guarded by If-Version-Match).
 */
export class TestEvaluation {
  private readonly evaluator: Evaluator;
  private readonly push: ResultPush;

  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
    private readonly ingest: Ingest,
    private readonly neighbours: LineageNeighbours,
  ) {
    this.evaluator = new Evaluator(registry);
    this.push = new ResultPush(registry, reader);
  }

  /** One definition's verdict on one entity, read with the aspects the definition needs; failures explained. */
  async verdict(entity: EntityView, definition: TestDefinition): Promise<Verdict> {
    const [[verdict]] = await verdicts(this.evaluator, [entity], [definition], new LoadedHops(this.reader, this.registry, this.neighbours, [entity], definition.aspects), true);
    return verdict;
  }

  /**
   * Evaluates entities already read (`read`, if given) or read now; a push that lost a race with
   * another push (If-Version-Match on testResults) reads them again and evaluates again.
   */
  async evaluate(
    urns: readonly string[],
    read: readonly EntityView[] | undefined,
    tests: readonly LoadedTest[],
    options: EvaluateOptions,
    explain: boolean,
  ): Promise<Map<string, TestResults>> {
    const aspects = aspectsRead(tests, options.push);
    for (let attempt = 1; ; attempt++) {
      let entities = attempt === 1 ? read : undefined;
      if (!entities) {
        const found = await this.reader.getEntities(urns, aspects, { points: true });
        const missing = urns.find((u) => !found.has(u));
        if (missing && !options.skipMissing) throw new NotFoundError(`Entity ${missing} not found`);
        entities = [...found.values()];
      }
      try {
        return await this.evaluateEntities(entities, aspects, tests, options, explain);
      } catch (error) {
        if (!(error instanceof PreconditionError) || attempt >= PUSH_ATTEMPTS) throw error;
      }
    }
  }

  private async evaluateEntities(
    entities: readonly EntityView[],
    aspects: ReadonlySet<string> | undefined,
    tests: readonly LoadedTest[],
    options: EvaluateOptions,
    explain: boolean,
  ): Promise<Map<string, TestResults>> {
    const hops = new LoadedHops(this.reader, this.registry, this.neighbours, entities, aspects);
    const found = await verdicts(this.evaluator, entities, tests.map((t) => t.definition), hops, explain);
    const time = Date.now();
    const results = new Map<string, TestResults>();
    const proposals: Proposal[] = [];
    for (const [e, entity] of entities.entries()) {
      const outcome: TestResults = { passing: [], failing: [] };
      const evaluated: EvaluatedTest[] = [];
      for (const [t, test] of tests.entries()) {
        const { verdict, explanation } = found[e][t];
        if (verdict === 'NOT_SELECTED') continue;
        const result: TestResult = {
          test: test.urn,
          type: verdict === 'PASS' ? 'SUCCESS' : 'FAILURE',
          testDefinitionMd5: test.md5,
          lastComputed: { time, actor: options.actor },
        };
        if (verdict === 'PASS') outcome.passing.push(result);
        else outcome.failing.push({ ...result, explanation });
        evaluated.push({ test, passed: verdict === 'PASS' });
      }
      results.set(entity.urn, outcome);
      if (options.push) proposals.push(...(await this.push.proposals(entity, outcome, evaluated, options.tests)));
    }
    if (proposals.length > 0) await this.ingest.ingest(proposals, { actor: options.actor, source: TEST_SOURCE });
    return results;
  }
}

/** aspectsRead's answers by list of tests (the scheduled list is one array per catalog load), with and without push. */
const readByTests = new WeakMap<readonly LoadedTest[], Array<ReadonlySet<string> | undefined>>();

/** The union of what the tests read (undefined: everything), plus testResults when results are pushed. */
export function aspectsRead(tests: readonly LoadedTest[], push: boolean): ReadonlySet<string> | undefined {
  let known = readByTests.get(tests);
  if (!known) readByTests.set(tests, (known = []));
  const slot = push ? 1 : 0;
  if (!(slot in known)) known[slot] = unionRead(tests, push);
  return known[slot];
}

function unionRead(tests: readonly LoadedTest[], push: boolean): Set<string> | undefined {
  const aspects = new Set<string>(push ? ['testResults'] : []);
  for (const test of tests) {
    if (!test.definition.aspects) return undefined;
    for (const aspect of test.definition.aspects) aspects.add(aspect);
  }
  return aspects;
}
