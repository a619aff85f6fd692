/**
 * Multi-hop lineage walks over a warehouse-shaped graph (bench/lineage-graph.ts): 1-hop reads of
 * ordinary tables, the 3-hop downstream impact of a shared dimension, and the full downstream
 * closure of a hot source, against issue 36's targets at 1M datasets (1-hop p95 < 5 ms, 3-hop of a
 * hub with ~10,000 descendants p95 < 200 ms, a closure of 100,000 < 2 s).
 *
 * The graph is loaded as a catalog is: each dataset's `upstreamLineage` (and a `status`, as
 * DataHub's connectors send) written through the Ingest service in batches, which draws the
 * edges in the write's transaction. Then, in interleaved rounds, each walk is timed twice: through
 * the service the HTTP route calls (`Lineage.page`, a page of 100 as the route's default), and
 * through HTTP (a listening server in this process, authentication on, one request at a time).
 * Every walk's total is checked against the same walk over the generated graph in memory.
 *
 * usage: node dist/bench/lineage.js [--datasets 10000[,100000,…]] [--postgres] [--rounds <n>] [--keep <dir|name>]
 *   --datasets  the graph's size; several: one fresh store each, in order (default 10000)
 *   --rounds    rounds of the interleaved walks (default 10: 400 1-hop reads, 30 3-hop walks and
 *               10 closures each way)
 *   --postgres  a fresh PostgreSQL database (dropped afterwards; see benchDatabase)
 *   --keep      load into <dir> (SQLite) or the database urnbase_bench_<name> and keep it; a store
 *               kept by an earlier run of the same size is measured again without loading
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { GraphEdges } from '../src/graph/edges.js';
import { limitHeapGrowth } from '../src/heap-growth.js';
import { Lineage, type LineageDirection } from '../src/graph/lineage.js';
import type { Services } from '../src/services.js';
import { benchDatabase, fmt, makeTempDir, removeTempDir } from './harness.js';
import { reach, warehouseGraph, type WarehouseGraph } from './lineage-graph.js';

const { values: flags } = parseArgs({
  options: { datasets: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '10' }, postgres: { type: 'boolean', default: false }, keep: { type: 'string' } },
});
const SIZES = flags.datasets.split(',').map(Number);
const ROUNDS = Number(flags.rounds);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1000) || !Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--datasets expects whole numbers ≥ 1,000, --rounds a positive one');
if (flags.keep !== undefined && SIZES.length > 1) throw new Error('--keep takes one --datasets size');
/** Datasets per Ingest call (two aspects each: upstreamLineage and status). */
const BATCH = 500;
/** Per round: 1-hop reads (half each way), hub 1-hop reads, 3-hop walks, closures. */
const PER_ROUND = { oneHop: 40, hubOneHop: 2, threeHops: 3, closure: 1 };
/** Targets at 1M datasets (ms, p95). */
const TARGETS = { oneHop: 5, threeHops: 200, closure: 2000 };
const SECRET = `urnb_bench_${randomBytes(24).toString('hex')}`;
const context = { actor: 'urn:li:corpuser:bench', source: 'bench' };
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:etl' };

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** One walk: from a table, one way, so many hops; what it must reach. */
interface Walk {
  from: number;
  direction: LineageDirection;
  maxHops: number;
}

/** Writes the graph through the write path, BATCH datasets a call; returns the seconds it took. */
async function load(services: Services, graph: WarehouseGraph): Promise<number> {
  const began = performance.now();
  let reported = began;
  for (let start = 0; start < graph.size; start += BATCH) {
    const proposals = [];
    for (let i = start; i < Math.min(graph.size, start + BATCH); i++) {
      const urn = graph.urn(i);
      proposals.push({ urn, aspect: 'status', changeType: 'UPSERT' as const, value: { removed: false } });
      const upstreams = Array.from(graph.ups.subarray(graph.upsFrom[i], graph.upsFrom[i + 1]), (u) => ({ dataset: graph.urn(u), type: 'TRANSFORMED', auditStamp: stamp }));
      if (upstreams.length > 0) proposals.push({ urn, aspect: 'upstreamLineage', changeType: 'UPSERT' as const, value: { upstreams } });
    }
    await services.ingest.ingest(proposals, context);
    if (performance.now() - reported > 60_000) {
      reported = performance.now();
      const done = Math.min(graph.size, start + BATCH);
      console.log(`  … ${fmt(done)} datasets in ${fmt((reported - began) / 1000)} s (${fmt(done / ((reported - began) / 1000))}/s), load average ${loadAverage()}`);
    }
  }
  return (performance.now() - began) / 1000;
}

async function measure(size: number): Promise<void> {
  console.log(`\n=== ${fmt(size)} datasets, ${flags.postgres ? 'PostgreSQL' : 'SQLite'} ===`);
  const made = performance.now();
  const graph = warehouseGraph(size);
  const hubClosure = reach(graph, graph.hub, 'DOWNSTREAM', 3);
  const rootClosure = reach(graph, graph.root, 'DOWNSTREAM', Number.MAX_SAFE_INTEGER);
  const fanOut = (t: number) => graph.downsFrom[t + 1] - graph.downsFrom[t];
  const upstreamCounts = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < size; i++) upstreamCounts[Math.min(6, graph.upsFrom[i + 1] - graph.upsFrom[i])]++;
  console.log(`graph (${fmt(performance.now() - made)} ms to make): ${fmt(size)} datasets, ${fmt(graph.edges)} lineage edges, ${graph.domains} domains`);
  console.log(`  upstreams per dataset 0…5, 6+: ${upstreamCounts.map((n) => fmt(n)).join(' / ')}`);
  console.log(`  hubs' direct downstreams: ${graph.hubs.map((h) => fmt(fanOut(h))).join(', ')}`);
  console.log(`  3-hop hub ${graph.urn(graph.hub)}: ${fmt(fanOut(graph.hub))} direct downstreams, ${fmt(hubClosure.total)} within 3 hops (${hubClosure.perHop.map((n) => fmt(n)).join(' + ')})`);
  console.log(`  closure root ${graph.urn(graph.root)}: ${fmt(fanOut(graph.root))} direct downstreams, closure ${fmt(rootClosure.total)} in ${rootClosure.perHop.length} hops`);

  const keptDir = flags.keep !== undefined && !flags.postgres;
  const dataDir = keptDir ? path.resolve(flags.keep!) : await makeTempDir('urnbase-lineage-');
  const database = flags.postgres ? await benchDatabase(flags.keep) : undefined;
  limitHeapGrowth(30); // as `urnbase serve` does
  const { app, services } = await buildApp({
    dataDir,
    logLevel: 'warn',
    bodyLimit: 1024 * 1024,
    testsInterval: 0,
    testsOnChange: false,
    auth: true,
    adminToken: SECRET,
    ...(database ? { databaseUrl: database.url } : {}),
  });
  try {
    const last = graph.urn(size - 1);
    const loaded = (await services.store.adjacentEdges({ sources: [last], includeRemoved: true })).length > 0;
    if (loaded) console.log(`\nload: the kept store holds the graph already (${last} has its upstreams): not loaded`);
    else {
      console.log(`\nload: ${BATCH} datasets per Ingest call (upstreamLineage and status), load average ${loadAverage()}`);
      const seconds = await load(services, graph);
      console.log(`load: ${fmt(seconds, 1)} s, ${fmt(size / seconds)} datasets/s, ${fmt(graph.edges / seconds)} edges/s, load average ${loadAverage()}`);
    }
    const bytes = database
      ? await database.size()
      : ['urnbase.db', 'urnbase.db-wal'].reduce((n, f) => {
          try {
            return n + statSync(path.join(dataDir, f)).size;
          } catch {
            return n;
          }
        }, 0);
    console.log(`store: ${fmt(bytes / 2 ** 20)} MiB${database ? '' : ' (with the log)'}`);

    const lineage = new Lineage(services.store, services.registry, new GraphEdges(services.registry).walkKinds());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const expected = (w: Walk) => reach(graph, w.from, w.direction, w.maxHops).total;
    const check = (w: Walk, total: number, partial: boolean, how: string) => {
      const want = expected(w);
      if (partial || total !== want) throw new Error(`${how} ${w.direction} ${w.maxHops} hops from ${graph.urn(w.from)}: ${total} reached${partial ? ' (partial)' : ''}, the graph has ${want}`);
    };
    const inProcess = async (w: Walk): Promise<number> => {
      const t0 = performance.now();
      const page = await lineage.page({ root: graph.urn(w.from), direction: w.direction, maxHops: w.maxHops, budgetMs: 60_000, includeRemoved: false }, { entityTypes: [], platforms: [], degrees: [] }, 0, 100);
      const ms = performance.now() - t0;
      check(w, page.total, page.partial, 'Lineage.page');
      return ms;
    };
    const overHttp = async (w: Walk): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${base}/openapi/v3/lineage/dataset/${encodeURIComponent(graph.urn(w.from))}?direction=${w.direction}&maxHops=${w.maxHops}&budgetMs=60000`, { headers: { authorization: `Bearer ${SECRET}` } });
      const body = (await res.json()) as { total: number; partial: boolean };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      check(w, body.total, body.partial, 'HTTP');
      return ms;
    };

    // Ordinary tables (not hubs), a different one each time, each way in turn.
    let drawn = 0;
    const ordinary = (): Walk => {
      drawn++;
      const from = graph.hubs.length + ((drawn * 7_919 + 13) % (size - graph.hubs.length));
      return { from, direction: drawn % 2 ? 'UPSTREAM' : 'DOWNSTREAM', maxHops: 1 };
    };
    const kinds = {
      oneHop: { label: '1-hop, ordinary tables', walk: ordinary },
      hubOneHop: { label: `1-hop downstream of the largest hub (${fmt(fanOut(graph.hubs[0]))})`, walk: (): Walk => ({ from: graph.hubs[0], direction: 'DOWNSTREAM', maxHops: 1 }) },
      threeHops: { label: `3-hop downstream of a hub (${fmt(hubClosure.total)})`, walk: (): Walk => ({ from: graph.hub, direction: 'DOWNSTREAM', maxHops: 3 }) },
      closure: { label: `full downstream closure (${fmt(rootClosure.total)})`, walk: (): Walk => ({ from: graph.root, direction: 'DOWNSTREAM', maxHops: 1000 }) },
    } as const;
    type Kind = keyof typeof kinds;
    const names = Object.keys(kinds) as Kind[];
    const ways = { service: inProcess, HTTP: overHttp };
    const times = new Map<string, number[]>();
    const record = (way: string, kind: Kind, ms: number) => times.set(`${way} ${kind}`, [...(times.get(`${way} ${kind}`) ?? []), ms]);

    // Warm-up: one of each, each way (not counted).
    for (const kind of names) for (const run of Object.values(ways)) await run(kinds[kind].walk());
    console.log(`\nwalks: ${ROUNDS} interleaved rounds, each ${names.map((k) => `${PER_ROUND[k]} ${k}`).join(', ')}, through the service and through HTTP; load average ${loadAverage()}`);
    const began = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of names) {
        for (const [way, run] of Object.entries(ways)) {
          for (let k = 0; k < PER_ROUND[kind]; k++) record(way, kind, await run(kinds[kind].walk()));
        }
      }
    }
    console.log(`walks took ${fmt((performance.now() - began) / 1000)} s; load average ${loadAverage()}\n`);

    const header = ['walk', 'through', 'n', 'median ms', 'p95 ms', 'max ms', 'target (p95, at 1M)'];
    const rows: string[][] = [];
    for (const kind of names) {
      for (const way of Object.keys(ways)) {
        const xs = times.get(`${way} ${kind}`)!;
        const target = kind === 'hubOneHop' ? undefined : TARGETS[kind];
        const p95 = percentile(xs, 95);
        rows.push([kinds[kind].label, way, String(xs.length), fmt(percentile(xs, 50), 2), fmt(p95, 2), fmt(Math.max(...xs), 2), target === undefined ? '—' : `< ${fmt(target)} ms: ${p95 < target ? 'met' : 'NOT MET'}`]);
      }
    }
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  } finally {
    await app.close();
    await database?.drop();
    if (!keptDir) await removeTempDir(dataDir);
  }
}

console.log('urnbase lineage walks');
console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${loadAverage()}`);
for (const size of SIZES) await measure(size);
