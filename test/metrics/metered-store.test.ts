import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { meterStore } from '../../src/metrics/metered-store.js';
import { HistogramFamily } from '../../src/metrics/series.js';
import type { Store } from '../../src/store/store.js';

/** A store of three timed calls: one that answers, one that rejects, one that throws before it has a promise. */
function fakeStore(): Store {
  return {
    getVersion: async () => ({ urn: 'urn:li:corpuser:a', aspect: 'status', version: 1, value: { removed: false } }),
    getHistory: async () => [],
    latestPoints: async () => [],
    getLatest: async () => {
      throw new Error('rejected');
    },
    listUrns: () => {
      throw new Error('thrown');
    },
    location: { kind: 'sqlite', dataDir: '/nowhere', sync: 'normal' },
  } as unknown as Store;
}

describe('store-call metering', () => {
  it('passes each call through as it was and counts it under its outcome; a call that throws is a rejection', async () => {
    const seconds = new HistogramFamily(new Registry(), { name: 's', help: 'S', labelNames: ['operation', 'outcome'], buckets: [1] });
    const store = meterStore(fakeStore(), seconds);
    assert.deepEqual(await store.getVersion('urn:li:corpuser:a', 'status', 0), { urn: 'urn:li:corpuser:a', aspect: 'status', version: 1, value: { removed: false } });
    await assert.rejects(store.getLatest('urn:li:corpuser:a'), /^Error: rejected$/);
    const thrown = store.listUrns('corpUserKey', undefined, 10);
    assert.ok(thrown instanceof Promise, 'a synchronous throw comes back as a rejected promise');
    await assert.rejects(thrown, /^Error: thrown$/);
    assert.deepEqual(await store.getHistory('urn:li:corpuser:a', 0, 10), []);
    assert.deepEqual(await store.latestPoints([{ urn: 'urn:li:corpuser:a', aspect: 'datasetProfile' }]), []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(seconds.series('getVersion', 'ok').count, 1);
    assert.equal(seconds.series('getHistory', 'ok').count, 1, "a timeline's history read is timed");
    assert.equal(seconds.series('latestPoints', 'ok').count, 1, 'a read of timeseries points is timed');
    assert.equal(seconds.series('getVersion', 'error').count, 0);
    assert.equal(seconds.series('getLatest', 'ok').count, 0);
    assert.equal(seconds.series('getLatest', 'error').count, 1);
    assert.equal(seconds.series('listUrns', 'error').count, 1);
    assert.deepEqual(store.location, { kind: 'sqlite', dataDir: '/nowhere', sync: 'normal' }, 'other members pass through');
  });
});
