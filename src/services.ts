import type { TokenService } from './auth/tokens.js';
import type { Forms } from './forms/service.js';
import type { Lineage } from './graph/lineage.js';
import type { Relationships } from './graph/relationships.js';
import type { Ingest } from './ingest/ingest.js';
import type { TestScheduler } from './metatests/scheduler.js';
import type { MetadataTests } from './metatests/service.js';
import type { Reader } from './read/read.js';
import type { Registry } from './registry/registry.js';
import type { SearchService } from './search/service.js';
import type { Store } from './store/store.js';
import type { Timeline } from './timeline/timeline.js';

/** The services the HTTP layer (and the CLI) talk to. Built once by app.ts. */
export interface Services {
  registry: Registry;
  store: Store;
  reader: Reader;
  ingest: Ingest;
  tests: MetadataTests;
  scheduler: TestScheduler;
  tokens: TokenService;
  search: SearchService;
  timeline: Timeline;
  relationships: Relationships;
  lineage: Lineage;
  forms: Forms;
}
