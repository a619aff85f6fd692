import type { MetricObjectWithValues, MetricValue, MetricValueWithName, Registry } from 'prom-client';

/**
 * Counters and histograms for the request path, shown by prom-client's registry but recorded
 * here: prom-client validates and hashes a label object on every observation, which measured as
 * much CPU as a cached aspect read itself. Here a caller looks a series up once (per route,
 * status, store operation: a few hundred at most) and then only adds to numbers.
 */
abstract class Family<L extends string, S> {
  private readonly byKey = new Map<string, { labels: Record<L, string>; series: S }>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly labelNames: readonly L[],
  ) {
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in labelNames' order), made on first use. */
  series(...values: string[]): S {
    const key = values.join('\u0000');
    let found = this.byKey.get(key);
    if (!found) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]])) as Record<L, string>;
      found = { labels, series: this.create() };
      this.byKey.set(key, found);
    }
    return found.series;
  }

  protected abstract create(): S;
  protected abstract values(labels: Record<L, string>, series: S): MetricValue<string>[];

  /** What prom-client's registry reads when scraped. */
  get(): Omit<MetricObjectWithValues<MetricValue<string>>, 'collect'> {
    const values = [...this.byKey.values()].flatMap(({ labels, series }) => this.values(labels, series));
    return { name: this.name, help: this.help, type: this.type as never, values, aggregator: 'sum' };
  }

  reset(): void {
    this.byKey.clear();
  }
}

export class CounterSeries {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

export class CounterFamily<L extends string> extends Family<L, CounterSeries> {
  constructor(registry: Registry, options: { name: string; help: string; labelNames: readonly L[] }) {
    super(registry, options.name, options.help, 'counter', options.labelNames);
  }
  protected create(): CounterSeries {
    return new CounterSeries();
  }
  protected values(labels: Record<L, string>, series: CounterSeries): MetricValue<string>[] {
    return [{ labels, value: series.value }];
  }
}

export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= this.bounds[i]) {
        this.counts[i]++;
        return;
      }
    }
  }
}

export class HistogramFamily<L extends string> extends Family<L, HistogramSeries> {
  private readonly buckets: readonly number[];
  constructor(registry: Registry, options: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] }) {
    super(registry, options.name, options.help, 'histogram', options.labelNames);
    this.buckets = options.buckets;
  }
  protected create(): HistogramSeries {
    return new HistogramSeries(this.buckets);
  }
  /** Cumulative buckets, then +Inf, _sum and _count: the text format prom-client writes for its own. */
  protected values(labels: Record<L, string>, series: HistogramSeries): MetricValueWithName<string>[] {
    let below = 0;
    const buckets = this.buckets.map((le, i) => {
      below += series.counts[i];
      return { labels: { le, ...labels }, value: below, metricName: `${this.name}_bucket` };
    });
    return [
      ...buckets,
      { labels: { le: '+Inf', ...labels }, value: series.count, metricName: `${this.name}_bucket` },
      { labels, value: series.sum, metricName: `${this.name}_sum` },
      { labels, value: series.count, metricName: `${this.name}_count` },
    ];
  }
}
