import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ChangeEvent, SystemMetadata } from '../../src/store/store.js';
import { datasetUrn, testApp } from '../helpers.js';
import { pointValues, profile, timeseriesValues } from './points.js';

/** A catalog from before timeseries aspects: their values were kept as versions, and become points at start. */
describe('timeseries values kept as versions by an earlier urnbase', () => {
  it('become points at start (every version), leaving the change log readable and a value that is no point alone', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'urnbase-ts-upgrade-'));
    try {
      const urn = datasetUrn('ts.upgrade.profiled');
      const odd = datasetUrn('ts.upgrade.odd');
      const old = await testApp({ dataDir: dir });
      const stamp = { time: 1_000, actor: 'urn:li:corpuser:old' };
      const sm = (version: number): SystemMetadata => ({ version: String(version), lastObserved: 1_000 + version, runId: 'old-run', properties: { eventSource: 'RESTLI' }, aspectCreated: stamp, aspectModified: { ...stamp, time: 1_000 + version } });
      const put = (u: string, value: unknown, version: number) => ({ kind: 'put' as const, urn: u, entityType: 'dataset', aspect: 'datasetProfile', value, systemMetadata: sm(version), expectedVersion: version - 1 });
      const event = (u: string, value: unknown, previous: unknown, version: number): ChangeEvent => ({ urn: u, entityType: 'dataset', aspect: 'datasetProfile', changeType: 'UPSERT', created: stamp, value, previousValue: previous, systemMetadata: sm(version) });
      // As an earlier urnbase wrote them: versions of the aspect, each logged.
      await old.services.store.commit({ writes: [put(urn, profile(100, 1), 1)], events: [event(urn, profile(100, 1), null, 1)] });
      await old.services.store.commit({ writes: [put(urn, profile(200, 2), 2)], events: [event(urn, profile(200, 2), profile(100, 1), 2)] });
      await old.services.store.commit({ writes: [put(odd, { rowCount: 3 }, 1)], events: [] });
      await old.app.close();

      const upgraded = await testApp({ dataDir: dir });
      try {
        const res = await upgraded.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile' }));
        assert.deepEqual(pointValues(res.body), [profile(200, 2), profile(100, 1)]);
        assert.equal(res.body.value.values[0].systemMetadata.runId, 'old-run');
        assert.equal(await upgraded.services.store.getVersion(urn, 'datasetProfile', 0), undefined, 'no version left');
        assert.deepEqual((await upgraded.services.store.getVersion(odd, 'datasetProfile', 0))?.value, { rowCount: 3 }, 'not a point: left as it was');
        const logged = (await upgraded.services.store.readEvents(0, 1000)).filter((e) => e.urn === urn && e.aspect === 'datasetProfile');
        assert.deepEqual(logged.map((e) => [e.value, e.previousValue]), [[profile(100, 1), null], [profile(200, 2), profile(100, 1)]]);
      } finally {
        await upgraded.app.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
