import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LatestCache } from '../../../src/store/sqlite/latest-cache.js';
import type { StoredAspect } from '../../../src/store/store.js';

const stored = (urn: string): StoredAspect => ({ urn, aspect: 'datasetProperties', version: 0, value: { name: urn }, systemMetadata: { version: '1' } as StoredAspect['systemMetadata'] });

describe('the latest-value cache', () => {
  it('starts over when the next entry would pass its size, whatever the count', () => {
    const cache = new LatestCache(1000, 250);
    for (const urn of ['a', 'b']) cache.set(urn, 'datasetProperties', stored(urn), 100);
    assert.deepEqual([cache.get('a', 'datasetProperties')?.urn, cache.get('b', 'datasetProperties')?.urn], ['a', 'b']);
    cache.set('c', 'datasetProperties', stored('c'), 100);
    assert.deepEqual([cache.get('a', 'datasetProperties'), cache.get('c', 'datasetProperties')?.urn], [undefined, 'c']);
  });

  it('counts a replaced entry once, at its new size', () => {
    const cache = new LatestCache(1000, 250);
    cache.set('a', 'datasetProperties', stored('a'), 200);
    cache.set('a', 'datasetProperties', stored('a'), 10);
    cache.set('b', 'datasetProperties', stored('b'), 200);
    assert.deepEqual([cache.get('a', 'datasetProperties')?.urn, cache.get('b', 'datasetProperties')?.urn, cache.sizeOf('a', 'datasetProperties')], ['a', 'b', 10]);
  });

  it('starts over past its entry count, absent aspects included', () => {
    const cache = new LatestCache(2, 1_000_000);
    cache.set('a', 'status', null, 0);
    cache.set('b', 'status', null, 0);
    assert.equal(cache.get('a', 'status'), null);
    cache.set('c', 'status', null, 0);
    assert.deepEqual([cache.get('a', 'status'), cache.get('c', 'status')], [undefined, null]);
  });
});
