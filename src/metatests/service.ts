import { NotFoundError, PreconditionError, ValidationError } from '../errors.js';
import type { Ingest } from '../ingest/ingest.js';
import type { Proposal } from '../ingest/proposal.js';
import { jsonEqual } from '../json.js';
import type { EntityView, Reader } from '../read/read.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import { parseUrn } from '../urn/urn.js';
import { actionProposals } from './actions.js';
import type { LoadedTest, TestCatalog } from './catalog.js';
import { DefinitionError, parseDefinition, type TestDefinition } from './definition.js';
import { Evaluator, type FailedCondition, type Verdict } from './engine.js';
import { LoadedHops } from './hops.js';
import type { PageCounts, PageTask, RunPool } from './run-pool.js';

/** One test's result on one entity, as DataHub's TestResult. */
export interface TestResult {
  test: string;
  type: 'SUCCESS' | 'FAILURE';
  testDefinitionMd5: string;
  lastComputed: { time: number; actor: string };
}

/** Results of an evaluation; failures carry the conditions that failed (in responses only). */
export interface TestResults {
  passing: TestResult[];
  failing: Array<TestResult & { explanation: FailedCondition[] }>;
}

export interface EvaluateOptions {
  /** Exactly these tests (run even when INACTIVE or on-demand); default: the active scheduled ones. */
  tests?: readonly string[];
  push: boolean;
  actor: string;
  /** Skip entities that do not exist (instead of answering 404). */
  skipMissing?: boolean;
}

export interface RunSummary {
  entities: number;
  /** Worker threads that evaluated the run (0: the calling thread did). */
  workers: number;
  tests: Array<{ urn: string; name: string; selected: number; passing: number; failing: number }>;
}

export type RunOptions = EvaluateOptions & { pageSize?: number; onPage?: (done: number) => void };

/** A finished run, as reported to onRun listeners. */
export interface TestRunReport {
  kind: 'catalog' | 'entities';
  outcome: 'ok' | 'error';
  seconds: number;
  entities: number;
}

export type RunListener = (run: TestRunReport) => void;

/** Writes made by tests: the on-change trigger ignores them, so actions do not re-trigger tests. */
export const TEST_SOURCE = 'METADATA_TESTS';
const PUSH_ATTEMPTS = 5;

/** Metadata tests: evaluate entities against test definitions, push results and run actions. */
export class MetadataTests {
  private readonly evaluator: Evaluator;
  private readonly runListeners: RunListener[] = [];

  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
    private readonly ingest: Ingest,
    readonly catalog: TestCatalog,
    private readonly pool?: RunPool,
  ) {
    this.evaluator = new Evaluator(registry);
  }

  /** Hears of every finished run (catalog-wide or of named entities): for metrics. */
  onRun(listener: RunListener): void {
    this.runListeners.push(listener);
  }

  private async timed<T>(kind: 'catalog' | 'entities', work: () => Promise<T>, entities: (result: T) => number): Promise<T> {
    const started = performance.now();
    const report = (outcome: 'ok' | 'error', count: number) => {
      for (const listener of this.runListeners) listener({ kind, outcome, seconds: (performance.now() - started) / 1000, entities: count });
    };
    try {
      const result = await work();
      report('ok', entities(result));
      return result;
    } catch (error) {
      report('error', 0);
      throw error;
    }
  }

  /** Evaluates the entities (404 for an unknown one); with push, writes results and actions in one transaction. */
  async evaluate(urns: readonly string[], options: EvaluateOptions): Promise<Map<string, TestResults>> {
    return this.timed('entities', () => this.evaluateNamed(urns, options), (results) => results.size);
  }

  private async evaluateNamed(urns: readonly string[], options: EvaluateOptions): Promise<Map<string, TestResults>> {
    const tests = await this.testsFor(options.tests);
    return this.evaluateRead(urns, undefined, tests, options, true);
  }

  /** Tries an unsaved definition on one entity. */
  async evaluateDefinition(urn: string, definition: unknown): Promise<Verdict> {
    let parsed;
    try {
      parsed = parseDefinition(definition, this.registry);
    } catch (error) {
      if (error instanceof DefinitionError) throw new ValidationError(error.message);
      throw error;
    }
    const entity = (await this.reader.getEntities([urn], parsed.aspects)).get(urn);
    if (!entity) throw new NotFoundError(`Entity ${urn} not found`);
    const [[verdict]] = await this.verdicts([entity], [parsed], new LoadedHops(this.reader, this.registry, [entity], parsed.aspects), true);
    return verdict;
  }

  /**
   * Evaluates tests over every entity in their scope, a page at a time (failures are not
   * explained): on worker threads when there is a pool and enough entities, else on this thread.
   */
  async run(options: RunOptions): Promise<RunSummary> {
    return this.timed('catalog', () => this.runScope(options), (summary) => summary.entities);
  }

  private async runScope(options: RunOptions): Promise<RunSummary> {
    const tests = await this.testsFor(options.tests);
    const summary = new Map(tests.map((t) => [t.urn, { urn: t.urn, name: t.info.name, selected: 0, passing: 0, failing: 0 }]));
    const types = [...new Set(tests.flatMap((t) => t.definition.types))].map((type) => this.registry.entityType(type)!);
    // Pages of 100: a page's parsed aspects then die young; 500 spent about a quarter of the run in GC.
    const pageSize = options.pageSize ?? 100;
    let done = 0;
    const add = (counts: PageCounts) => {
      for (const [test, passing, failing] of counts.tests) {
        const total = summary.get(test)!;
        total.selected += passing + failing;
        total.passing += passing;
        total.failing += failing;
      }
      done += counts.entities;
      options.onPage?.(done);
    };
    const plan = { tests: tests.map((t) => t.urn), push: options.push, actor: options.actor };
    const pooled = this.pool && (await this.scopeReaches(types, this.pool.minEntities)) ? this.pool : undefined;
    if (pooled) {
      await pooled.run(plan, this.pages(types, pageSize), add);
    } else {
      const aspects = aspectsRead(tests, options.push);
      for (const spec of types) {
        for await (const page of this.reader.entitiesOf(spec, pageSize, aspects)) add(await this.evaluatePage(page, tests, options));
      }
    }
    return { entities: done, workers: pooled?.size ?? 0, tests: [...summary.values()] };
  }

  /** Evaluates one page of a run (a worker thread's share); `tests` are the run's test URNs. */
  async runPage(page: PageTask, tests: readonly string[], options: EvaluateOptions): Promise<PageCounts> {
    const loaded = await this.testsFor(tests);
    const entities = await this.reader.entitiesBetween(this.registry.entityType(page.entityType)!, page.after, page.last, aspectsRead(loaded, options.push));
    return this.evaluatePage(entities, loaded, options);
  }

  private async evaluatePage(page: readonly EntityView[], tests: readonly LoadedTest[], options: EvaluateOptions): Promise<PageCounts> {
    const results = await this.evaluateRead(page.map((e) => e.urn), page, tests, { ...options, skipMissing: true }, false);
    const counts = new Map(tests.map((t) => [t.urn, { passing: 0, failing: 0 }]));
    for (const entityResults of results.values()) {
      for (const r of entityResults.passing) counts.get(r.test)!.passing++;
      for (const r of entityResults.failing) counts.get(r.test)!.failing++;
    }
    return { entities: page.length, tests: [...counts].map(([test, c]) => [test, c.passing, c.failing]) };
  }

  /** Whether the entity types hold at least `count` entities together. */
  private async scopeReaches(types: readonly EntitySpec[], count: number): Promise<boolean> {
    let found = 0;
    for (const spec of types) {
      for await (const urns of this.reader.urnsOf(spec, count - found)) {
        found += urns.length;
        break;
      }
      if (found >= count) return true;
    }
    return false;
  }

  /** The pages of a run, as URN ranges. */
  private async *pages(types: readonly EntitySpec[], pageSize: number): AsyncIterable<PageTask> {
    for (const spec of types) {
      let after: string | undefined;
      for await (const urns of this.reader.urnsOf(spec, pageSize)) {
        const last = urns[urns.length - 1];
        yield { entityType: spec.name, after, last };
        after = last;
      }
    }
  }

  /**
   * Evaluates entities already read (`read`, if given) or read now; a push that lost a race with
   * another push (If-Version-Match on testResults) reads them again and evaluates again.
   */
  private async evaluateRead(
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
        const found = await this.reader.getEntities(urns, aspects);
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

  /** Named tests (400 for an unknown one), or the active, scheduled ones. */
  private async testsFor(named?: readonly string[]): Promise<LoadedTest[]> {
    const all = await this.catalog.all();
    if (!named) return [...all.values()].filter((t) => t.active && t.scheduled);
    return named.map((urn) => {
      parseUrn(urn);
      const test = all.get(urn);
      if (!test) throw new ValidationError(`Unknown test ${urn}`);
      return test;
    });
  }

  private async evaluateEntities(
    entities: readonly EntityView[],
    aspects: ReadonlySet<string> | undefined,
    tests: readonly LoadedTest[],
    options: EvaluateOptions,
    explain: boolean,
  ): Promise<Map<string, TestResults>> {
    const hops = new LoadedHops(this.reader, this.registry, entities, aspects);
    const verdicts = await this.verdicts(entities, tests.map((t) => t.definition), hops, explain);
    const time = Date.now();
    const results = new Map<string, TestResults>();
    const proposals: Proposal[] = [];
    for (const [e, entity] of entities.entries()) {
      const outcome: TestResults = { passing: [], failing: [] };
      const evaluated: Array<{ test: LoadedTest; passed: boolean }> = [];
      for (const [t, test] of tests.entries()) {
        const { verdict, explanation } = verdicts[e][t];
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
      if (options.push) proposals.push(...(await this.pushProposals(entity, outcome, evaluated, options)));
    }
    if (proposals.length > 0) await this.ingest.ingest(proposals, { actor: options.actor, source: TEST_SOURCE });
    return results;
  }

  /**
   * Every entity's verdict on every definition. Evaluation is synchronous; the pairs that met a
   * hop target not loaded yet are evaluated again once the targets they noted are loaded.
   */
  private async verdicts(entities: readonly EntityView[], definitions: readonly TestDefinition[], hops: LoadedHops, explain: boolean): Promise<Verdict[][]> {
    const verdicts = entities.map(() => new Array<Verdict>(definitions.length));
    let retry: Array<[number, number]> = [];
    for (let e = 0; e < entities.length; e++) {
      for (let t = 0; t < definitions.length; t++) {
        const verdict = this.evaluator.evaluate(definitions[t], entities[e], hops, explain);
        if (verdict) verdicts[e][t] = verdict;
        else retry.push([e, t]);
      }
    }
    // Each round loads one more level of hops, so this ends within the longest path's length.
    while (retry.length > 0) {
      await hops.fetch();
      const pending = retry;
      retry = [];
      for (const [e, t] of pending) {
        const verdict = this.evaluator.evaluate(definitions[t], entities[e], hops, explain);
        if (verdict) verdicts[e][t] = verdict;
        else retry.push([e, t]);
      }
    }
    return verdicts;
  }

  /** The entity's new testResults (if it changes) and the actions of the tests it passed or failed. */
  private async pushProposals(
    entity: EntityView,
    outcome: TestResults,
    evaluated: ReadonlyArray<{ test: LoadedTest; passed: boolean }>,
    options: EvaluateOptions,
  ): Promise<Proposal[]> {
    const spec = this.registry.entityType(entity.entityType);
    if (!spec?.aspects.has('testResults')) return [];
    const stored = entity.aspects.get('testResults');
    const previous = (stored?.value as { passing: TestResult[]; failing: TestResult[] } | undefined) ?? { passing: [], failing: [] };
    const replaced = new Set(options.tests ?? [...previous.passing, ...previous.failing].map((r) => r.test));
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

/** The union of what the tests read (undefined: everything), plus testResults when results are pushed. */
function aspectsRead(tests: readonly LoadedTest[], push: boolean): Set<string> | undefined {
  const aspects = new Set<string>(push ? ['testResults'] : []);
  for (const test of tests) {
    if (!test.definition.aspects) return undefined;
    for (const aspect of test.definition.aspects) aspects.add(aspect);
  }
  return aspects;
}
