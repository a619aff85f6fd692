/**
 * Timeseries aspects under load (issue 34, part 3), against urnbase's own versioned writes in the
 * same run, with wrk as the load generator (bench/wrk.ts):
 *  (a) Rest.li ingestProposal of datasetProfile points against ingestProposal of datasetProperties
 *      versions, in interleaved rounds: both rates and their ratio (target: points ≥ versions);
 *  (b) getTimeseriesAspectValues with latestValue over 1M datasetProfile points, loaded straight
 *      through the store in bulk before the server starts: its p95 (target < 5 ms), from one
 *      connection (with 16, latency is mostly the queue: 16 / rate).
 *
 * usage: node dist/bench/timeseries.js [--postgres] [--rounds 3] [--duration 5] [--connections 16] [--points 1000000]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/open.js';
import type { TimeseriesPoint } from '../src/store/store.js';
import { authHeaders, benchDatabase, fmt, makeTempDir, median, removeTempDir, startUrnbase } from './harness.js';
import { requireWrk, runWrk, writeRequests, type HttpRequest, type WrkResult } from './wrk.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    points: { type: 'string', default: '1000000' },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const POINTS = Number(values.points);
const ENTITIES = 10_000; // 1M points: 100 per dataset
const REQUESTS = 20_000; // distinct requests wrk cycles through
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,ts_bench_${i},PROD)`;
const headers = { ...authHeaders(), 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' };

function proposal(i: number, aspectName: string, value: unknown): HttpRequest {
  const mcp = { entityType: 'dataset', entityUrn: urnOf(i % 1000), changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } };
  return { method: 'POST', path: '/aspects?action=ingestProposal', headers, body: JSON.stringify({ proposal: mcp, async: 'false' }) };
}

/** Each request a new point (a new time) or a new version (a new description) of one of 1,000 datasets. */
const pointWrites = (round: number) => Array.from({ length: REQUESTS }, (_, i) => proposal(i, 'datasetProfile', { timestampMillis: 1_700_000_000_000 + round * REQUESTS + i, rowCount: i, columnCount: 12 }));
const versionWrites = (round: number) => Array.from({ length: REQUESTS }, (_, i) => proposal(i, 'datasetProperties', { description: `round ${round} write ${i}`, customProperties: {} }));

/** Loads the points straight through the store: commits of 5,000 points, no events (a bulk load, not requests). */
async function loadPoints(store: Awaited<ReturnType<typeof openStore>>): Promise<number> {
  const started = performance.now();
  const batch = 5_000;
  for (let n = 0; n < POINTS; n += batch) {
    const points: TimeseriesPoint[] = [];
    for (let j = n; j < Math.min(POINTS, n + batch); j++) {
      const urn = urnOf(j % ENTITIES);
      const time = 1_600_000_000_000 + Math.floor(j / ENTITIES) * 3_600_000;
      points.push({ urn, entityType: 'dataset', aspect: 'datasetProfile', timestampMillis: time, key: '', value: { timestampMillis: time, rowCount: j, columnCount: 12 }, systemMetadata: { lastObserved: time }, written: { time, actor: 'urn:li:corpuser:bench' } });
    }
    await store.commit({ writes: [], events: [], points });
  }
  return (performance.now() - started) / 1000;
}

const line = (r: WrkResult) => `${fmt(r.rate)}/s, p50 ${fmt(r.latencyMs.p50, 2)} ms, p95 ${fmt(r.latencyMs.p95, 2)} ms, p99 ${fmt(r.latencyMs.p99, 2)} ms, non-2xx ${r.other}`;

async function main(): Promise<void> {
  const wrk = requireWrk();
  const dir = await makeTempDir('urnbase-ts-bench-');
  const database = values.postgres ? await benchDatabase() : undefined;
  const storeArgs = database ? ['--database-url', database.url] : [];
  console.log(`timeseries bench on ${database ? 'PostgreSQL' : 'SQLite'}, ${wrk}, ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections`);
  try {
    // (b)'s data first, through the store, before any server has it open.
    const store = await openStore({ dataDir: path.join(dir, 'data'), ...(database ? { databaseUrl: database.url } : {}) });
    const loadSeconds = await loadPoints(store);
    await store.close();
    console.log(`loaded ${fmt(POINTS)} datasetProfile points over ${fmt(ENTITIES)} datasets in ${fmt(loadSeconds, 1)} s (${fmt(POINTS / loadSeconds)}/s)`);

    const server = await startUrnbase(path.join(dir, 'data'), storeArgs);
    try {
      const files = { points: path.join(dir, 'points.req'), versions: path.join(dir, 'versions.req'), latest: path.join(dir, 'latest.req') };
      const latest = Array.from({ length: REQUESTS }, (_, i): HttpRequest => ({
        method: 'POST',
        path: '/aspects?action=getTimeseriesAspectValues',
        headers,
        body: JSON.stringify({ urn: urnOf((i * 7919) % ENTITIES), entity: 'dataset', aspect: 'datasetProfile', latestValue: true }),
      }));
      await writeRequests(files.latest, server.base, latest);
      // The 1,000 datasets exist before the rounds: neither side pays for creating them.
      await writeRequests(files.versions, server.base, Array.from({ length: 1000 }, (_, i) => proposal(i, 'status', { removed: false })));
      await runWrk(server.base, files.versions, 2, CONNECTIONS, true);
      const results = { points: [] as WrkResult[], versions: [] as WrkResult[], latest: [] as WrkResult[] };
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating which goes first, so that neither always runs on the warmer server.
        await writeRequests(files.points, server.base, pointWrites(round));
        await writeRequests(files.versions, server.base, versionWrites(round));
        const order = round % 2 === 0 ? (['points', 'versions'] as const) : (['versions', 'points'] as const);
        for (const kind of order) results[kind].push(await runWrk(server.base, files[kind], DURATION, CONNECTIONS, true));
        // One connection: the latency of a read itself, not of a queue of 16.
        results.latest.push(await runWrk(server.base, files.latest, DURATION, 1, true));
        console.log(`round ${round + 1}: points ${line(results.points.at(-1)!)}; versions ${line(results.versions.at(-1)!)}; latest ${line(results.latest.at(-1)!)}`);
      }
      const rate = (list: WrkResult[]) => median(list.map((r) => r.rate));
      const p95 = median(results.latest.map((r) => r.latencyMs.p95));
      console.log(`\nmedians of ${ROUNDS} rounds:`);
      console.log(`  (a) timeseries writes ${fmt(rate(results.points))}/s, versioned writes ${fmt(rate(results.versions))}/s, ratio ${fmt(rate(results.points) / rate(results.versions), 2)} (target ≥ 1)`);
      console.log(`  (b) latestValue over ${fmt(POINTS)} points: ${fmt(rate(results.latest))}/s, p95 ${fmt(p95, 2)} ms (target < 5 ms)`);
      const failed = [...results.points, ...results.versions, ...results.latest].reduce((n, r) => n + r.other + r.errors.timeout, 0);
      if (failed > 0) console.log(`  ${failed} answers were not 2xx or timed out: the figures are not valid`);
    } finally {
      await server.stop();
    }
  } finally {
    await database?.drop();
    await removeTempDir(dir);
  }
}

await main();
