import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp } from '../helpers.js';
import { restliError } from '../restli/clients.js';
import { profile, timeseriesValues } from './points.js';

/** What one timeseries read may cost (docs/operations.md#limits). */
describe('timeseries read limits', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  it('refuses a read whose points hold more than 64 MiB of JSON, naming the limit', async () => {
    const big = datasetUrn('ts.reads.big');
    const padding = 'x'.repeat(22 * 2 ** 20);
    for (let i = 0; i < 3; i++) {
      const value = profile(i, i, { messageId: `${i}${padding}` });
      await t.services.store.commit({ writes: [], events: [], points: [{ urn: big, entityType: 'dataset', aspect: 'datasetProfile', timestampMillis: i, key: String(i), value, systemMetadata: { lastObserved: 1 }, written: { time: 1, actor: 'urn:li:corpuser:test' } }] });
    }
    const res = await t.call(timeseriesValues({ urn: big, entity: 'dataset', aspect: 'datasetProfile' }));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, restliError(400, 'The points asked for hold more than 64 MiB of JSON (limit timeseriesAnswerChars): ask for fewer (limit) or a shorter time range'));
    const two = await t.call(timeseriesValues({ urn: big, entity: 'dataset', aspect: 'datasetProfile', limit: 2 }));
    assert.equal(two.status, 200);
    assert.equal(two.body.value.values.length, 2);
    const scroll = await t.call({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProfile?count=3' });
    assert.equal(scroll.status, 400);
    assert.equal(scroll.body.message, 'The points asked for hold more than 64 MiB of JSON (limit timeseriesAnswerChars): ask for fewer (limit) or a shorter time range');
  });
});
