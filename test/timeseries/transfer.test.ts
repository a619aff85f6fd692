import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { exportCatalog } from '../../src/transfer/export.js';
import { importExport, validateExport } from '../../src/transfer/import.js';
import { datasetUrn, testApp } from '../helpers.js';
import { emitProfile, pointValues, profile, timeseriesValues } from './points.js';

/** `urnbase export` and `import` carry timeseries points. */
describe('timeseries points in an export', () => {
  it('are exported after the versions, counted in the end record, and imported with their keys and metadata', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'urnbase-ts-transfer-'));
    const file = path.join(dir, 'catalog.ndjson');
    try {
      const urn = datasetUrn('ts.transfer.orders');
      const source = await testApp();
      try {
        await source.call(emitProfile(urn, profile(100, 1, { partitionSpec: { partition: 'a' } })));
        await source.call(emitProfile(urn, profile(100, 2, { partitionSpec: { partition: 'b' } })));
        await source.call(emitProfile(urn, profile(200, 3)));
        const lines: string[] = [];
        const end = await exportCatalog(source.services.store, source.services.registry, { includeTokens: false }, async (line) => void lines.push(line));
        assert.equal(end.points, 3);
        const points = lines.map((l) => JSON.parse(l)).filter((r) => r.kind === 'point');
        assert.deepEqual(points.map((p) => p.value.rowCount).sort(), [1, 2, 3]);
        assert.equal(points[0].written.actor, 'urn:li:corpuser:datahub');
        await writeFile(file, `${lines.join('\n')}\n`);
      } finally {
        await source.app.close();
      }
      const target = await testApp();
      try {
        const validated = await validateExport(file, target.services.registry);
        assert.equal(validated.points, 3);
        const summary = await importExport(target.services.store, target.services.registry, file, { includeTokens: false, replace: true }, validated);
        assert.equal(summary.points, 3);
        const res = await target.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile' }));
        assert.deepEqual(pointValues(res.body), [profile(200, 3), profile(100, 2, { partitionSpec: { partition: 'b' } }), profile(100, 1, { partitionSpec: { partition: 'a' } })]);
        assert.equal(res.body.value.values[0].systemMetadata.properties.eventSource, 'RESTLI');
        // --replace empties points too.
        const again = await importExport(target.services.store, target.services.registry, file, { includeTokens: false, replace: true });
        assert.equal(again.points, 3);
        assert.equal((await target.call(timeseriesValues({ urn, entity: 'dataset', aspect: 'datasetProfile' }))).body.value.values.length, 3);
      } finally {
        await target.app.close();
      }
      // A point with a wrong count, or of a versioned aspect, is refused before anything is written.
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace('"points":3', '"points":4'));
      await assert.rejects(validateExport(file, (await import('../../src/registry/registry.js')).Registry.load()), { message: /the end record counts 4 points, the file holds 3/ });
      await writeFile(file, text.replace('"aspect":"datasetProfile"', '"aspect":"datasetProperties"'));
      await assert.rejects(validateExport(file, (await import('../../src/registry/registry.js')).Registry.load()), { message: /"datasetProperties" is not a timeseries aspect of entity type dataset/ });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
