import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Store } from '../store/store.js';
import { newestEvent } from './change-log.js';
import { CounterFamily, HistogramFamily } from './series.js';

/** Request latencies: most answers take milliseconds; batches and searches at scale, seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A metadata-test run: `catalog` (every entity in scope) or `entities` (named ones, or after changes). */
export type TestRunKind = 'catalog' | 'entities';

/**
 * The Prometheus metrics of one app instance, in a registry of its own (not prom-client's
 * global one), so two apps in one process, as in the tests, never count each other's work.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: CounterFamily<'route' | 'method' | 'status'>;
  private readonly requestSeconds: HistogramFamily<'route' | 'method'>;
  readonly storeSeconds: HistogramFamily<'operation' | 'outcome'>;
  private readonly testRuns: CounterFamily<'kind' | 'outcome'>;
  private readonly testRunSeconds: HistogramFamily<'kind'>;
  private readonly testEntities: CounterFamily<'kind'>;
  private readonly liveHeap: Gauge;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'urnbase_' });
    this.requests = new CounterFamily(this.registry, {
      name: 'urnbase_http_requests_total',
      help: 'HTTP requests answered, by route pattern (never the raw URL), method and status code',
      labelNames: ['route', 'method', 'status'],
    });
    this.requestSeconds = new HistogramFamily(this.registry, {
      name: 'urnbase_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern and method',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
    });
    this.storeSeconds = new HistogramFamily(this.registry, {
      name: 'urnbase_store_operation_duration_seconds',
      help: 'Store calls: commit (one transaction) and reads, by operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
    });
    this.testRuns = new CounterFamily(this.registry, {
      name: 'urnbase_metadata_test_runs_total',
      help: 'Metadata-test runs, by kind (catalog: a whole scope; entities: named or changed entities) and outcome',
      labelNames: ['kind', 'outcome'],
    });
    this.testRunSeconds = new HistogramFamily(this.registry, {
      name: 'urnbase_metadata_test_run_duration_seconds',
      help: 'Duration of metadata-test runs, by kind',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600],
    });
    this.testEntities = new CounterFamily(this.registry, {
      name: 'urnbase_metadata_test_entities_total',
      help: 'Entities evaluated by metadata-test runs, by kind',
      labelNames: ['kind'],
    });
    this.liveHeap = new Gauge({
      name: 'urnbase_heap_live_bytes',
      help: 'V8 heap in use right after the full collection `urnbase serve` runs once requests stop for 2 s: the live set (growth from one quiet spell to the next is a leak)',
      registers,
    });
  }

  /** The heap in use right after a full collection: the live set. */
  liveHeapBytes(bytes: number): void {
    this.liveHeap.set(bytes);
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.series(route, method, String(status)).inc();
    this.requestSeconds.series(route, method).observe(seconds);
  }

  testRun(kind: TestRunKind, outcome: 'ok' | 'error', seconds: number, entities: number): void {
    this.testRuns.series(kind, outcome).inc();
    this.testRunSeconds.series(kind).observe(seconds);
    this.testEntities.series(kind).inc(entities);
  }

  /** Change-log gauges, read from the store when scraped (a few one-event reads). */
  watchChangeLog(store: Store): void {
    let known = 0;
    const registers = [this.registry];
    let age: number | undefined;
    new Gauge({
      name: 'urnbase_change_log_newest_sequence',
      help: 'Sequence number of the newest change-log event (0: none yet); consumers compare it with theirs',
      registers,
      async collect() {
        const newest = await newestEvent(store, known);
        known = newest?.sequence ?? 0;
        age = newest && Math.max(0, (Date.now() - newest.created.time) / 1000);
        this.set(known);
      },
    });
    new Gauge({
      name: 'urnbase_change_log_newest_event_age_seconds',
      help: 'Seconds since the newest change-log event was written (absent while the log is empty)',
      registers,
      collect() {
        // Set by the sequence gauge, which prom-client collects first (registration order).
        this.reset();
        if (age !== undefined) this.set(age);
      },
    });
  }
}
