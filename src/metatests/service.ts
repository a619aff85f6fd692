import { NotFoundError, ValidationError } from '../errors.js';
import type { LineageNeighbours } from '../graph/neighbours.js';
import type { Ingest } from '../ingest/ingest.js';
import type { Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import { parseUrn } from '../urn/urn.js';
import type { LoadedTest, TestCatalog } from './catalog.js';
import { CatalogRuns, type RunOptions, type RunSummary } from './catalog-runs.js';
import { DefinitionError, parseDefinition } from './definition.js';
import type { Verdict } from './engine.js';
import { TestEvaluation, type EvaluateOptions } from './evaluation.js';
import { operatorList } from './operators.js';
import { knownPaths } from './paths.js';
import type { TestResults } from './results.js';
import { quoted } from '../limits.js';
import type { PageCounts, PageTask, RunPool } from './run-pool.js';

/** A finished run, as reported to onRun listeners. */
export interface TestRunReport {
  kind: 'catalog' | 'entities';
  outcome: 'ok' | 'error';
  seconds: number;
  entities: number;
}

export type RunListener = (run: TestRunReport) => void;

/** What an evaluation of the empty definition `{}` adds to its verdict. */
export const EMPTY_DEFINITION_NOTE = 'The definition is empty ({}): it selects no entity, so the test never passes or fails';

/** The words a definition may use, for an editor to offer (POST /gms/test?action=vocabulary). */
export interface Vocabulary {
  /** The entity types a test may select (those that can hold testResults). */
  entityTypes: string[];
  properties: string[];
  operators: Array<{ name: string; binary: boolean }>;
}

/**
 * Metadata tests: evaluate entities against test definitions, push results and run actions. The
 * entry points: named entities, an unsaved definition, catalog-wide runs and a worker's page of one.
 */
export class MetadataTests {
  private readonly evaluation: TestEvaluation;
  private readonly runs: CatalogRuns;
  private readonly runListeners: RunListener[] = [];
  /** The active, scheduled tests of a loaded catalog (one list per load: see testsFor). */
  private readonly scheduled = new WeakMap<ReadonlyMap<string, LoadedTest>, readonly LoadedTest[]>();

  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
    ingest: Ingest,
    readonly catalog: TestCatalog,
    /** Where lineage steps of property paths find their edges. */
    neighbours: LineageNeighbours,
    pool?: RunPool,
  ) {
    this.evaluation = new TestEvaluation(registry, reader, ingest, neighbours);
    this.runs = new CatalogRuns(registry, reader, this.evaluation, pool);
  }

  /** Hears of every finished run (catalog-wide or of named entities): for metrics. */
  onRun(listener: RunListener): void {
    this.runListeners.push(listener);
  }

  /** Evaluates the entities (404 for an unknown one); with push, writes results and actions in one transaction. */
  async evaluate(urns: readonly string[], options: EvaluateOptions): Promise<Map<string, TestResults>> {
    return this.timed(
      'entities',
      async () => this.evaluation.evaluate(urns, undefined, await this.testsFor(options.tests), options, true),
      (results) => results.size,
    );
  }

  /** Tries an unsaved definition on one entity; `{}` says that it selects nothing. */
  async evaluateDefinition(urn: string, definition: unknown): Promise<Verdict & { note?: string }> {
    let parsed;
    try {
      parsed = parseDefinition(definition, this.registry);
    } catch (error) {
      if (error instanceof DefinitionError) throw new ValidationError(error.message);
      throw error;
    }
    const entity = (await this.reader.getEntities([urn], parsed.aspects, { points: true })).get(urn);
    if (!entity) throw new NotFoundError(`Entity ${urn} not found`);
    const verdict = await this.evaluation.verdict(entity, parsed);
    return parsed.selectsNothing ? { ...verdict, note: EMPTY_DEFINITION_NOTE } : verdict;
  }

  /**
   * The words of the definition language for entity types, for an editor to offer: the property
   * paths known on them (knownPaths; none without types), the operators, and the types a test may
   * select. A type no test may select is a 400.
   */
  vocabulary(types: unknown): Vocabulary {
    const entityTypes = this.registry.entityTypes().filter((e) => e.aspects.has('testResults')).map((e) => e.name).sort();
    if (types === undefined) return { entityTypes, properties: [], operators: operatorList() };
    if (!Array.isArray(types) || types.length === 0) throw new ValidationError('types must be a non-empty list of entity types');
    const names = types.map((t: unknown, i: number) => {
      const spec = typeof t === 'string' ? this.registry.entityType(t) : undefined;
      if (!spec) throw new ValidationError(`types[${i}]: unknown entity type ${quoted(t)}`);
      if (!spec.aspects.has('testResults')) throw new ValidationError(`types[${i}]: entity type "${spec.name}" cannot hold testResults`);
      return spec.name;
    });
    return { entityTypes, properties: knownPaths(this.registry, names), operators: operatorList() };
  }

  /**
   * Evaluates tests over every entity in their scope, a page at a time (failures are not
   * explained): on worker threads when there is a pool and enough entities, else on this thread.
   */
  async run(options: RunOptions): Promise<RunSummary> {
    return this.timed('catalog', async () => this.runs.run(await this.testsFor(options.tests), options), (summary) => summary.entities);
  }

  /** Evaluates one page of a run (a worker thread's share); `tests` are the run's test URNs. */
  async runPage(page: PageTask, tests: readonly string[], options: EvaluateOptions): Promise<PageCounts> {
    return this.runs.page(page, await this.testsFor(tests), options);
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

  /** The same list for as long as the catalog is not reloaded, so what depends on it is worked out once (aspectsRead). */
  private scheduledOf(all: ReadonlyMap<string, LoadedTest>): readonly LoadedTest[] {
    let list = this.scheduled.get(all);
    if (!list) this.scheduled.set(all, (list = [...all.values()].filter((t) => t.active && t.scheduled)));
    return list;
  }

  /** Named tests (400 for an unknown one), or the active, scheduled ones. */
  private async testsFor(named?: readonly string[]): Promise<readonly LoadedTest[]> {
    const all = await this.catalog.all();
    if (!named) return this.scheduledOf(all);
    return named.map((urn) => {
      parseUrn(urn);
      const test = all.get(urn);
      if (!test) throw new ValidationError(`Unknown test ${urn}`);
      return test;
    });
  }
}
