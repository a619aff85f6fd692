/**
 * Load benchmark: requests/s of urnbase's aspect read and aspect upsert, against a bare Fastify
 * server doing the same HTTP and JSON work (see harness.ts for how it is run and reported).
 *
 * usage: node dist/bench/load.js [--duration <s>] [--rounds <n>] [--connections <n>]
 *                                [--quick] [--profile <dir>] [--no-auth] [--costs]
 *   --quick (or BENCH_QUICK=1)  1 s per run, 1 round: a smoke check
 *   --profile <dir>             run urnbase under node --cpu-prof, profiles written to <dir>
 *   --no-auth                   run urnbase with --auth false (by default auth is on, as in `urnbase serve`)
 *   --costs                     also run urnbase with each costly default off, one at a time, and
 *                               report what each costs (see harness.ts)
 */
import {
  BARE_GET,
  BARE_POST,
  DURABLE_POST,
  DATASETS,
  V2,
  aspectVersion,
  authHeaders,
  encodedUrns,
  expectOk,
  freshTagsBody,
  jsonHeaders,
  pickDataset,
  runSuite,
  seedDatasets,
  seedTags,
} from './harness.js';

const ASPECT = (urn: string) => `${V2}/dataset/${urn}/globalTags`;

runSuite({
  title: 'urnbase load benchmark',
  seeded: `${DATASETS} seeded datasets`,
  scenarios: [
    BARE_GET,
    { name: 'urnbase GET', server: 'urnbase', request: () => ({ method: 'GET', path: ASPECT(pickDataset()) }) },
    BARE_POST,
    DURABLE_POST,
    {
      name: 'urnbase POST',
      server: 'urnbase',
      writes: true,
      request: () => ({ method: 'POST', path: ASPECT(pickDataset()), headers: jsonHeaders(), body: freshTagsBody() }),
    },
  ],
  async seed(base) {
    await seedDatasets(base, (i) => ({ globalTags: { value: seedTags(i) } }));
    const sample = await expectOk(await fetch(`${base}${ASPECT(encodedUrns[0])}`, { headers: authHeaders() }), 'reading a seeded aspect');
    if (JSON.stringify(sample) !== JSON.stringify({ value: seedTags(0) })) {
      throw new Error(`unexpected seeded aspect: ${JSON.stringify(sample)}`);
    }
  },
  writes: 'upserts',
  /** Sum over all datasets of (aspect version − 1): each successful upsert must have added one. */
  async writtenVersions(base) {
    let total = 0;
    for (const urn of encodedUrns) total += (await aspectVersion(base, urn, 'globalTags')) - 1;
    return total;
  },
  ratios: [
    { label: 'GET / bare GET', scenario: 'urnbase GET', baseline: 'bare GET', target: 0.5 },
    // On PostgreSQL: issue 22's target.
    { label: 'POST / bare POST', scenario: 'urnbase POST', baseline: 'bare POST', target: 0.25, postgresTarget: 0.12 },
    // Issue 39: a single durable write against the least durable write.
    { label: 'POST / durable bare POST', scenario: 'urnbase POST', baseline: 'durable bare POST', target: 0.4 },
  ],
});
