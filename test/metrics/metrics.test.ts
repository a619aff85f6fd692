import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newestEvent } from '../../src/metrics/change-log.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import type { ChangeEvent } from '../../src/store/store.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

const DS = datasetUrn('metrics.orders');

/** The value of one sample line of the exposition, e.g. `name{a="b"}` → 3; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.call({ method: 'GET', url: '/metrics' });
    assert.equal(res.status, 200);
    return res.raw;
  };
  before(async () => {
    t = await testApp();
    const write = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(DS)}/datasetProperties`, payload: { name: 'orders' } });
    assert.equal(write.status, 200);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(DS)}/datasetProperties` })).status, 200);
    assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(datasetUrn('metrics.none'))}/datasetProperties` })).status, 404);
    assert.equal((await t.call({ method: 'GET', url: '/no/such/route' })).status, 404);
  });
  after(() => t.app.close());

  it('answers the Prometheus text format', async () => {
    const res = await t.call({ method: 'GET', url: '/metrics' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.match(res.raw, /^# HELP urnbase_http_requests_total HTTP requests answered/m);
    assert.match(res.raw, /^# TYPE urnbase_http_requests_total counter$/m);
  });

  it('counts requests by route pattern, method and status, never by raw URL', async () => {
    const text = await scrape();
    const route = '/openapi/v2/entity/:type/:urn/:aspect';
    assert.equal(sample(text, `urnbase_http_requests_total{route="${route}",method="POST",status="200"}`), 1);
    assert.equal(sample(text, `urnbase_http_requests_total{route="${route}",method="GET",status="200"}`), 1);
    assert.equal(sample(text, `urnbase_http_requests_total{route="${route}",method="GET",status="404"}`), 1);
    assert.equal(sample(text, 'urnbase_http_requests_total{route="unmatched",method="GET",status="404"}'), 1);
    assert.ok(!text.includes('urn:li:dataset'), 'no URN in any label');
    assert.ok(!text.includes('/no/such/route'), 'no raw URL in any label');
  });

  it('has latency histograms by route and method', async () => {
    const text = await scrape();
    const series = 'urnbase_http_request_duration_seconds_count{route="/openapi/v2/entity/:type/:urn/:aspect",method="GET"}';
    assert.equal(sample(text, series), 2);
    assert.match(text, /^urnbase_http_request_duration_seconds_bucket\{le="0\.001",route="\/openapi\/v2\/entity\/:type\/:urn\/:aspect",method="GET"\} \d+$/m);
  });

  it('times store commits and reads', async () => {
    const text = await scrape();
    assert.ok((sample(text, 'urnbase_store_operation_duration_seconds_count{operation="commit",outcome="ok"}') ?? 0) >= 1);
    assert.ok((sample(text, 'urnbase_store_operation_duration_seconds_count{operation="getLatestMany",outcome="ok"}') ?? 0) >= 1);
  });

  it('reports the newest change-log sequence and its age', async () => {
    const newest = (await t.services.store.readEvents(0, 10_000)).at(-1)!;
    const text = await scrape();
    assert.equal(sample(text, 'urnbase_change_log_newest_sequence'), newest.sequence);
    const age = sample(text, 'urnbase_change_log_newest_event_age_seconds');
    assert.ok(age !== undefined && age >= 0 && age < 60, String(age));
  });

  it('counts metadata-test runs with their duration and entities', async () => {
    await t.services.tests.run({ push: false, actor: 'urn:li:corpuser:datahub' });
    const res = await t.call({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: DS } });
    assert.equal(res.status, 200, res.raw);
    const text = await scrape();
    assert.equal(sample(text, 'urnbase_metadata_test_runs_total{kind="catalog",outcome="ok"}'), 1);
    assert.equal(sample(text, 'urnbase_metadata_test_runs_total{kind="entities",outcome="ok"}'), 1);
    assert.equal(sample(text, 'urnbase_metadata_test_run_duration_seconds_count{kind="catalog"}'), 1);
    assert.equal(sample(text, 'urnbase_metadata_test_entities_total{kind="entities"}'), 1);
  });

  it('keeps each app instance to its own registry', async () => {
    const other = await testApp();
    try {
      const text = (await other.call({ method: 'GET', url: '/metrics' })).raw;
      assert.equal(sample(text, 'urnbase_http_requests_total{route="/openapi/v2/entity/:type/:urn/:aspect",method="POST",status="200"}'), undefined);
    } finally {
      await other.app.close();
    }
  });
});

describe('GET /metrics with authentication on', () => {
  let t: TestApp;
  const admin = 'urnb_metrics-admin-token-0123456789abcdefghijkl';
  before(async () => (t = await testApp({ auth: true, adminToken: admin })));
  after(() => t.app.close());

  it('answers 401 without a token', async () => {
    const res = await t.call({ method: 'GET', url: '/metrics' });
    assert.equal(res.status, 401);
  });

  it('answers a viewer token', async () => {
    const { token } = await t.services.tokens.create({ name: 'prometheus', role: 'viewer' }, 'urn:li:corpuser:admin');
    const res = await t.call({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
  });
});

describe('newest change-log event', () => {
  const store = new SqliteStore(':memory:');
  after(() => store.close());
  const event = (n: number): ChangeEvent => ({
    urn: `urn:li:tag:t${n}`,
    entityType: 'tag',
    aspect: 'tagKey',
    changeType: 'UPSERT',
    created: { time: 1000 + n, actor: 'urn:li:corpuser:datahub' },
    value: { name: `t${n}` },
    previousValue: null,
    systemMetadata: null,
  });

  it('is found from any known sequence, however many events follow', async () => {
    assert.equal(await newestEvent(store), undefined);
    for (let round = 0; round < 37; round++) await store.commit({ writes: [], events: [event(round)] });
    const all = await store.readEvents(0, 1000);
    const last = all.at(-1)!;
    for (const known of [0, 1, 5, 36, last.sequence]) assert.equal((await newestEvent(store, known))?.sequence, last.sequence, `from ${known}`);
  });
});

describe('the live heap, collected when idle', () => {
  it('is measured by a full collection once requests stop, and exported as urnbase_heap_live_bytes', async () => {
    const t = await testApp({ collectWhenIdleMs: 100 });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
      const live = async () => sample(await (await fetch(`${base}/metrics`)).text(), 'urnbase_heap_live_bytes');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const first = await live();
      assert.ok(first !== undefined && first > 1024 * 1024, `live heap ${first}`);
      // The scrape was a request: after the next quiet spell the figure is measured anew.
      await new Promise((resolve) => setTimeout(resolve, 400));
      const second = await live();
      assert.ok(second !== undefined && second !== first, `measured again: ${first} then ${second}`);
    } finally {
      await t.app.close();
    }
  });
});
