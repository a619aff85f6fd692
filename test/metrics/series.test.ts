import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { CounterFamily, HistogramFamily } from '../../src/metrics/series.js';

describe('metric series shown through prom-client', () => {
  it('writes counters and cumulative histogram buckets in the exposition format, each series once', async () => {
    const registry = new Registry();
    const hits = new CounterFamily(registry, { name: 'x_hits_total', help: 'Hits', labelNames: ['route', 'status'] });
    const seconds = new HistogramFamily(registry, { name: 'x_seconds', help: 'Time', labelNames: ['op'], buckets: [0.01, 0.1, 1] });
    hits.series('/a', '200').inc();
    hits.series('/a', '200').inc(2);
    hits.series('/b', '404').inc();
    const read = seconds.series('read');
    for (const value of [0.005, 0.01, 0.05, 5]) read.observe(value);
    assert.equal(seconds.series('read'), read, 'the same labels give the same series');
    assert.equal(
      await registry.metrics(),
      [
        '# HELP x_hits_total Hits',
        '# TYPE x_hits_total counter',
        'x_hits_total{route="/a",status="200"} 3',
        'x_hits_total{route="/b",status="404"} 1',
        '',
        '# HELP x_seconds Time',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.01",op="read"} 2',
        'x_seconds_bucket{le="0.1",op="read"} 3',
        'x_seconds_bucket{le="1",op="read"} 3',
        'x_seconds_bucket{le="+Inf",op="read"} 4',
        'x_seconds_sum{op="read"} 5.065',
        'x_seconds_count{op="read"} 4',
        '',
      ].join('\n'),
    );
  });

  it('forgets every series when the registry resets its metrics', async () => {
    const registry = new Registry();
    const hits = new CounterFamily(registry, { name: 'y_total', help: 'Y', labelNames: ['k'] });
    hits.series('a').inc();
    registry.resetMetrics();
    assert.equal(await registry.metrics(), '# HELP y_total Y\n# TYPE y_total counter\n');
  });
});
