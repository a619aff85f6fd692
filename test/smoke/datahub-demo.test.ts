import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { testApp } from '../helpers.js';
import { demoRequest } from './demo-records.js';

/**
 * DataHub's demo data (metadata-ingestion/examples/mce_files/bootstrap_mce.json, from a DataHub
 * checkout, never from this tree) sent as a user's `datahub ingest` sends it: one request per
 * record through the Python emitter's Rest.li calls (demo-records.ts). Opt in with
 * URNBASE_DATAHUB_DEMO=/path/to/bootstrap_mce.json. Every record must be accepted.
 */
const FILE = process.env.URNBASE_DATAHUB_DEMO;
const SKIP = FILE
  ? false
  : "URNBASE_DATAHUB_DEMO is not set: to send DataHub's demo data, point it at a copy of metadata-ingestion/examples/mce_files/bootstrap_mce.json";

describe("DataHub's demo data, sent as DataHub's Python emitter sends it", { skip: SKIP }, () => {
  it('accepts every record, one request each', async () => {
    assert.ok(existsSync(FILE!), `URNBASE_DATAHUB_DEMO=${FILE} does not exist`);
    const records = JSON.parse(readFileSync(FILE!, 'utf8')) as Array<Record<string, unknown>>;
    assert.ok(Array.isArray(records) && records.length > 0, 'the file is a JSON list of records');
    const t = await testApp();
    const refused: string[] = [];
    try {
      for (const [i, record] of records.entries()) {
        const res = await t.call(demoRequest(t.services.registry, record, 'demo-file', 1_700_000_000_000));
        if (res.status !== 200) refused.push(`record ${i}: ${res.status} ${res.body?.message ?? res.raw}`);
      }
      // Read back as a snapshot: the demo's first user, with the aspects its MCE carried.
      const user = await t.call({ method: 'GET', url: `/entities/${encodeURIComponent('urn:li:corpuser:datahub')}` });
      if (records.some((r) => JSON.stringify(r).includes('"urn:li:corpuser:datahub"'))) assert.equal(user.status, 200, user.raw);
    } finally {
      await t.app.close();
    }
    console.log(`DataHub demo data: ${records.length - refused.length} of ${records.length} records accepted`);
    assert.deepEqual(refused, []);
  });
});
