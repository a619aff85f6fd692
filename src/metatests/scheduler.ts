import type { Ingest } from '../ingest/ingest.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeEvent } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';
import { SYSTEM_ACTOR } from './actions.js';
import { TEST_SOURCE } from './push.js';
import type { MetadataTests } from './service.js';

export interface SchedulerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SchedulerOptions {
  /** How often ACTIVE tests with schedule DAILY run over their whole scope; 0 turns it off. */
  intervalMs: number;
  /** Re-evaluate an entity's tests shortly after its aspects change (and a test's scope after it changes). */
  onChange: boolean;
  /** How long changes are collected before they are evaluated together. */
  debounceMs?: number;
}

const CHUNK = 200;

/**
 * Runs tests off the request path: on an interval over the catalog, and shortly after commits,
 * coalesced per entity. Writes made by tests themselves (results, actions) never trigger it again.
 */
export class TestScheduler {
  private readonly entities = new Set<string>();
  private readonly changedTests = new Set<string>();
  private debounce?: NodeJS.Timeout;
  private interval?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly tests: MetadataTests,
    private readonly registry: Registry,
    private readonly options: SchedulerOptions,
    private readonly log: SchedulerLog,
  ) {}

  start(ingest: Ingest): void {
    if (this.options.onChange) ingest.onCommit((events, context) => context.source !== TEST_SOURCE && this.collect(events));
    if (this.options.intervalMs > 0) {
      this.interval = setInterval(() => this.enqueue(() => this.runScheduled()), this.options.intervalMs);
      this.interval.unref();
    }
  }

  /** Waits for work in flight; nothing new starts afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    clearTimeout(this.debounce);
    await this.running;
  }

  /** Resolves once everything collected so far has been evaluated (for tests and the CLI). */
  async idle(): Promise<void> {
    if (this.debounce) {
      clearTimeout(this.debounce);
      this.debounce = undefined;
      this.enqueue(() => this.flush());
    }
    await this.running;
  }

  private collect(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      if (event.aspect === 'testInfo') {
        if (event.value !== null) this.changedTests.add(event.urn);
      } else if (this.registry.entityType(event.entityType)?.aspects.has('testResults')) {
        this.entities.add(event.urn);
      }
    }
    if (!this.debounce && !this.closed && (this.entities.size > 0 || this.changedTests.size > 0)) {
      this.debounce = setTimeout(() => {
        this.debounce = undefined;
        this.enqueue(() => this.flush());
      }, this.options.debounceMs ?? 50);
      this.debounce.unref();
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.running = this.running.then(work).catch((error: unknown) => this.log.error({ err: error }, 'metadata tests: background run failed'));
  }

  private async flush(): Promise<void> {
    const tests = [...this.changedTests];
    const entities = [...this.entities];
    this.changedTests.clear();
    this.entities.clear();
    const all = await this.tests.catalog.all();
    for (const urn of tests) {
      const test = all.get(urn);
      if (test?.active) await this.tests.run({ tests: [urn], push: true, actor: SYSTEM_ACTOR });
    }
    // Only entities some active, scheduled test could select are worth loading.
    const types = new Set([...all.values()].filter((t) => t.active && t.scheduled).flatMap((t) => t.definition.types));
    const inScope = entities.filter((urn) => types.has(this.registry.entityType(parseUrn(urn).entityType)?.name ?? ''));
    for (let i = 0; i < inScope.length; i += CHUNK) {
      await this.tests.evaluate(inScope.slice(i, i + CHUNK), { push: true, actor: SYSTEM_ACTOR, skipMissing: true });
    }
  }

  private async runScheduled(): Promise<void> {
    const summary = await this.tests.run({ push: true, actor: SYSTEM_ACTOR });
    this.log.info({ entities: summary.entities, tests: summary.tests }, 'metadata tests: scheduled run done');
  }
}
