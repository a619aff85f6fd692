/**
 * Structured-property benchmark: requests/s of validated structured-property writes (replacing
 * all values with POST, one value with a JSON patch), against the bare server's POST route and
 * its durable POST (a new version committed to SQLite)
 * (see harness.ts for how it is run and reported).
 *
 * usage: node dist/bench/structured.js [--duration <s>] [--rounds <n>] [--connections <n>]
 *                                      [--quick] [--profile <dir>] [--no-auth] [--costs]
 *   --no-auth  run urnbase with --auth false (by default auth is on, as in `urnbase serve`)
 *   --costs    also run urnbase with each costly default off, one at a time (see harness.ts)
 */
import {
  BARE_POST,
  DURABLE_POST,
  DATASETS,
  V2,
  aspectVersion,
  encodedUrns,
  expectOk,
  jsonHeaders,
  pickDataset,
  runSuite,
  seedDatasets,
} from './harness.js';
import { assignments, DEFINITIONS, property, RETENTION, TIER } from './structured-values.js';

// Shared by all connections and both scenarios.
let next = 1;
const retentionPatch = (n: number) => ({
  patch: [{ op: 'add', path: `/properties/${RETENTION}`, value: { propertyUrn: RETENTION, values: [{ double: n }] } }],
  arrayPrimaryKeys: { properties: ['propertyUrn'] },
});

const VALUES = (urn: string) => `${V2}/dataset/${urn}/structuredProperties`;
const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: jsonHeaders(), body: JSON.stringify(body) });

runSuite({
  title: 'urnbase structured-property write benchmark',
  seeded: `${DATASETS} seeded datasets, ${DEFINITIONS.length} structured property definitions`,
  scenarios: [
    BARE_POST,
    DURABLE_POST,
    {
      name: 'structured POST',
      server: 'urnbase',
      writes: true,
      request: () => ({
        method: 'POST',
        path: VALUES(pickDataset()),
        headers: jsonHeaders(),
        body: JSON.stringify({ properties: assignments(next++) }),
      }),
    },
    {
      name: 'structured PATCH',
      server: 'urnbase',
      writes: true,
      request: () => ({
        method: 'PATCH',
        path: VALUES(pickDataset()),
        headers: jsonHeaders('application/json-patch+json'),
        body: JSON.stringify(retentionPatch(next++)),
      }),
    },
  ],
  async seed(base) {
    for (const body of DEFINITIONS) {
      const path = `${V2}/structuredProperty/${encodeURIComponent(property(body.qualifiedName))}/propertyDefinition`;
      await expectOk(await post(base, path, body), `defining ${body.qualifiedName}`);
    }
    await seedDatasets(base, () => ({ status: { value: { removed: false } } }));
    // The writes measured are validated ones: a value outside the allowed ones must be refused.
    const refused = await post(base, VALUES(encodedUrns[0]), { properties: [{ propertyUrn: TIER, values: [{ string: 'platinum' }] }] });
    if (refused.status !== 400) throw new Error(`a disallowed tier answered HTTP ${refused.status}, expected 400: ${await refused.text()}`);
    await refused.arrayBuffer();
  },
  writes: 'structured writes',
  /** Seeding stores no structuredProperties, so every version over the datasets is a write. */
  async writtenVersions(base) {
    let total = 0;
    for (const urn of encodedUrns) total += await aspectVersion(base, urn, 'structuredProperties');
    return total;
  },
  ratios: [
    { label: 'structured POST / bare POST', scenario: 'structured POST', baseline: 'bare POST', target: 0.25 },
    { label: 'structured PATCH / bare POST', scenario: 'structured PATCH', baseline: 'bare POST', target: 0.25 },
    // Issue 39: against the least durable write.
    { label: 'structured POST / durable bare POST', scenario: 'structured POST', baseline: 'durable bare POST', target: 0.4 },
    { label: 'structured PATCH / durable bare POST', scenario: 'structured PATCH', baseline: 'durable bare POST', target: 0.4 },
  ],
});
