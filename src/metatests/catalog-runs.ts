import type { EntityView, Reader } from '../read/read.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import type { LoadedTest } from './catalog.js';
import { aspectsRead, type EvaluateOptions, type TestEvaluation } from './evaluation.js';
import type { PageCounts, PageTask, RunPool } from './run-pool.js';

export interface RunSummary {
  entities: number;
  /** Worker threads that evaluated the run (0: the calling thread did). */
  workers: number;
  /** Per test; `selectsNothing` for an empty definition (`{}`), which no entity can match. */
  tests: Array<{ urn: string; name: string; selected: number; passing: number; failing: number; selectsNothing?: true }>;
}

export type RunOptions = EvaluateOptions & { pageSize?: number; onPage?: (done: number) => void };

/**
 * Catalog-wide runs: tests over every entity in their scope, a page at a time (failures are not
 * explained), on worker threads when there is a pool and enough entities, else on this thread.
 */
export class CatalogRuns {
  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
    private readonly evaluation: TestEvaluation,
    private readonly pool?: RunPool,
  ) {}

  async run(tests: readonly LoadedTest[], options: RunOptions): Promise<RunSummary> {
    const summary = new Map(
      tests.map((t) => [t.urn, { urn: t.urn, name: t.info.name, selected: 0, passing: 0, failing: 0, ...(t.definition.selectsNothing ? { selectsNothing: true as const } : {}) }]),
    );
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

  /** Evaluates one page of a run (a worker thread's share). */
  async page(page: PageTask, tests: readonly LoadedTest[], options: EvaluateOptions): Promise<PageCounts> {
    const entities = await this.reader.entitiesBetween(this.registry.entityType(page.entityType)!, page.after, page.last, aspectsRead(tests, options.push), { points: true });
    return this.evaluatePage(entities, tests, options);
  }

  private async evaluatePage(page: readonly EntityView[], tests: readonly LoadedTest[], options: EvaluateOptions): Promise<PageCounts> {
    const results = await this.evaluation.evaluate(page.map((e) => e.urn), page, tests, { ...options, skipMissing: true }, false);
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
}
