import { Forms } from './forms/service.js';
import { formPlugins } from './forms/plugins.js';
import { GraphEdges } from './graph/edges.js';
import { Lineage } from './graph/lineage.js';
import { LineageNeighbours } from './graph/neighbours.js';
import { Relationships } from './graph/relationships.js';
import { DEFAULT_MAX_WRITE_CHARS, Ingest } from './ingest/ingest.js';
import { TestCatalog } from './metatests/catalog.js';
import { RunPool } from './metatests/run-pool.js';
import { MetadataTests } from './metatests/service.js';
import { testInfoRules } from './metatests/test-info.js';
import { Reader } from './read/read.js';
import { SearchFields } from './search/fields.js';
import { SearchIndexer } from './search/indexer.js';
import { SearchService } from './search/service.js';
import type { Registry } from './registry/registry.js';
import type { ChangeEvent, Store } from './store/store.js';
import { propertyLookup, structuredPropertyPlugins, structuredPropertyReadFilters } from './structured/index.js';
import { Timeline } from './timeline/timeline.js';

/** The catalog's services without HTTP: the read path, the write path with its plugins, metadata tests. */
export interface Core {
  registry: Registry;
  store: Store;
  indexer: SearchIndexer;
  graph: GraphEdges;
  relationships: Relationships;
  lineage: Lineage;
  search: SearchService;
  reader: Reader;
  ingest: Ingest;
  tests: MetadataTests;
  forms: Forms;
  timeline: Timeline;
  /** Drops what the services cache about changes committed elsewhere (another replica). */
  forget(events: readonly ChangeEvent[]): void;
}

export interface CoreOptions {
  /** The largest request body: one request may write four times as much aspect JSON (at least 64 MiB). */
  bodyLimit?: number;
  /** Worker threads for catalog-wide test runs; 0 runs them on the calling thread. */
  testsWorkers?: number;
  /** Fewest entities in scope for a run to go to the workers (default 2,000). */
  testsWorkersFrom?: number;
  /** Whether writes keep the graph's edges (default true): false only to measure what that costs (bench/graph-upkeep.ts). */
  graph?: boolean;
}

/** Wires the services; app.ts builds one per process, and so does each worker thread of a test run. */
export function buildCore(store: Store, registry: Registry, options: CoreOptions = {}): Core {
  const reader = new Reader(store, registry, structuredPropertyReadFilters(store));
  const plugins = structuredPropertyPlugins();
  plugins.set('testInfo', [testInfoRules(registry)]);
  // The forms service needs the write path and search, which need the plugins: its lookups are late-bound.
  let forms: Forms | undefined;
  const formRules = formPlugins({ holders: (form) => forms!.holders(form), filterTypes: (filter) => forms!.filterTypes(filter) });
  for (const [aspect, rules] of formRules) plugins.set(aspect, [...(plugins.get(aspect) ?? []), ...rules]);
  const fields = SearchFields.load(registry);
  const indexer = new SearchIndexer(registry, fields);
  const graph = new GraphEdges(registry);
  const ingest = new Ingest(store, registry, plugins, indexer, Math.max(DEFAULT_MAX_WRITE_CHARS, 4 * (options.bodyLimit ?? 0)), options.graph === false ? undefined : graph);
  const catalog = new TestCatalog(registry, reader);
  // Parsed test definitions stay cached until a testInfo changes, here or elsewhere.
  const forget = (events: readonly ChangeEvent[]) => {
    if (events.some((e) => e.aspect === 'testInfo')) catalog.invalidate();
    forms?.forget(events);
  };
  ingest.onCommit(forget);
  const workers = options.testsWorkers ?? 0;
  const pool = workers > 0 && store.location ? new RunPool(store.location, workers, options.testsWorkersFrom) : undefined;
  const tests = new MetadataTests(registry, reader, ingest, catalog, new LineageNeighbours(store, graph.walkKinds()), pool);
  const search = new SearchService(registry, fields, propertyLookup(reader), store, graph.walkKinds());
  forms = new Forms(registry, reader, ingest, () => search);
  const following = forms;
  ingest.followCommits((events, context) => following.follow(events, context));
  return { registry, store, indexer, graph, relationships: new Relationships(store, graph.relationshipNames()), lineage: new Lineage(store, registry, graph.walkKinds()), reader, ingest, tests, forms, search, timeline: new Timeline(reader), forget };
}
