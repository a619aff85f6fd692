/**
 * Multi-hop lineage walks over a warehouse-shaped graph (bench/lineage-graph.ts): 1-hop reads of
 * ordinary tables, the 3-hop downstream impact of a shared dimension, and the full downstream
 * closure of a hot source, against the lineage issue's targets at 1M datasets (1-hop p95 < 5 ms, 3-hop of a
 * hub with ~10,000 descendants p95 < 200 ms, a closure of 100,000 < 2 s).
 *
 * The graph is loaded as a catalog is: each dataset's `upstreamLineage` (and a `status`, as
 * DataHub's connectors send) written through the Ingest service in batches, which draws the
 * edges in the write's transaction. Then, in interleaved rounds, each walk is timed twice: through
 * the service the HTTP route calls (`Lineage.page`, a page of 100 as the route's default), and
 * through HTTP (a listening server in this process, authentication on, one request at a time).
 * Every walk's total is checked against the same walk over the generated graph in memory.
 *
 * usage: node dist/bench/lineage.js [--datasets 10000[,100000,…]] [--postgres] [--rounds <n>] [--in-flight <n>] [--keep <dir|name>]
 *   --datasets  the graph's size; several: one fresh store each, in order (default 10000)
 *   --in-flight Ingest calls at a time while loading (default 2)
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
  options: {
    datasets: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '10' },
    'in-flight': { type: 'string', default: '2' },
    postgres: { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
});
const SIZES = flags.datasets.split(',').map(Number);
const ROUNDS = Number(flags.rounds);
/** Ingest calls at a time while loading: one prepares its batch while the store commits another's. */
const IN_FLIGHT = Number(flags['in-flight']);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1000) || ![ROUNDS, IN_FLIGHT].every((n) => Number.isInteger(n) && n >= 1)) {
  throw new Error('--datasets expects whole numbers ≥ 1,000, --rounds and --in-flight positive ones');
}
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

type Kind = 'oneHop' | 'hubOneHop' | 'threeHops' | 'closure';
const KINDS: Kind[] = ['oneHop', 'hubOneHop', 'threeHops', 'closure'];
type Way = 'service' | 'HTTP';
const WAYS: Way[] = ['service', 'HTTP'];

/** A walk the bench times, and what it must reach (the same walk over the graph in memory). */
interface Walk {
  kind: Kind;
  way: Way;
  urn: string;
  direction: LineageDirection;
  maxHops: number;
  expected: number;
}

/** The proposals that write tables from … to: each one's status, and its upstreamLineage when it has upstreams. */
function proposals(graph: WarehouseGraph, from: number, to: number) {
  const list = [];
  for (let i = from; i < to; i++) {
    const urn = graph.urn(i);
    list.push({ urn, aspect: 'status', changeType: 'UPSERT' as const, value: { removed: false } });
    const upstreams = Array.from(graph.ups.subarray(graph.upsFrom[i], graph.upsFrom[i + 1]), (u) => ({ dataset: graph.urn(u), type: 'TRANSFORMED', auditStamp: stamp }));
    if (upstreams.length > 0) list.push({ urn, aspect: 'upstreamLineage', changeType: 'UPSERT' as const, value: { upstreams } });
  }
  return list;
}

/** Writes the graph through the write path, BATCH datasets a call, IN_FLIGHT calls at a time; returns the seconds it took. */
async function load(services: Services, graph: WarehouseGraph): Promise<number> {
  const began = performance.now();
  let reported = began;
  let next = 0;
  const writer = async () => {
    while (next < graph.size) {
      const from = next;
      next = Math.min(graph.size, next + BATCH);
      await services.ingest.ingest(proposals(graph, from, next), context);
      if (performance.now() - reported > 60_000) {
        reported = performance.now();
        const seconds = (reported - began) / 1000;
        console.log(`  … ${fmt(next)} datasets in ${fmt(seconds)} s (${fmt(next / seconds)}/s), load average ${loadAverage()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
  return (performance.now() - began) / 1000;
}

/**
 * Makes the graph, prints its shape, loads it unless the store holds it already, and plans the
 * walks with what each must reach. The graph (1M URNs) is let go on return, so that what is
 * measured after runs in a heap like a server's.
 */
async function loadAndPlan(size: number, services: Services): Promise<{ labels: Record<Kind, string>; warmUp: Walk[]; rounds: Walk[][] }> {
  const made = performance.now();
  const graph = warehouseGraph(size);
  const hubReach = reach(graph, graph.hub, 'DOWNSTREAM', 3);
  const closure = reach(graph, graph.root, 'DOWNSTREAM', Number.MAX_SAFE_INTEGER);
  const fanOut = (t: number) => graph.downsFrom[t + 1] - graph.downsFrom[t];
  const upstreamCounts = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < size; i++) upstreamCounts[Math.min(6, graph.upsFrom[i + 1] - graph.upsFrom[i])]++;
  console.log(`graph (${fmt(performance.now() - made)} ms to make): ${fmt(size)} datasets, ${fmt(graph.edges)} lineage edges, ${graph.domains} domains`);
  console.log(`  upstreams per dataset 0…5, 6+: ${upstreamCounts.map((n) => fmt(n)).join(' / ')}`);
  console.log(`  hubs' direct downstreams: ${graph.hubs.map((h) => fmt(fanOut(h))).join(', ')}`);
  console.log(`  3-hop hub ${graph.urn(graph.hub)}: ${fmt(fanOut(graph.hub))} direct downstreams, ${fmt(hubReach.total)} within 3 hops (${hubReach.perHop.map((n) => fmt(n)).join(' + ')})`);
  console.log(`  closure root ${graph.urn(graph.root)}: ${fmt(fanOut(graph.root))} direct downstreams, closure ${fmt(closure.total)} in ${closure.perHop.length} hops`);

  const last = graph.urn(size - 1);
  if ((await services.store.adjacentEdges({ sources: [last], includeRemoved: true })).length > 0) {
    console.log(`\nload: the kept store holds the graph already (${last} has its upstreams): not loaded`);
  } else {
    console.log(`\nload: ${BATCH} datasets per Ingest call (upstreamLineage and status), ${IN_FLIGHT} calls at a time, load average ${loadAverage()}`);
    const seconds = await load(services, graph);
    console.log(`load: ${fmt(seconds, 1)} s, ${fmt(size / seconds)} datasets/s, ${fmt(graph.edges / seconds)} edges/s, load average ${loadAverage()}`);
  }

  // Ordinary tables (not hubs), a different one each time, each way in turn.
  let drawn = 0;
  const walk = (kind: Kind, way: Way): Walk => {
    const [from, direction, maxHops]: [number, LineageDirection, number] =
      kind === 'oneHop'
        ? [graph.hubs.length + ((++drawn * 7_919 + 13) % (size - graph.hubs.length)), drawn % 2 ? 'UPSTREAM' : 'DOWNSTREAM', 1]
        : kind === 'hubOneHop'
          ? [graph.hubs[0], 'DOWNSTREAM', 1]
          : kind === 'threeHops'
            ? [graph.hub, 'DOWNSTREAM', 3]
            : [graph.root, 'DOWNSTREAM', 1000];
    return { kind, way, urn: graph.urn(from), direction, maxHops, expected: reach(graph, from, direction, maxHops).total };
  };
  const round = () => KINDS.flatMap((kind) => WAYS.flatMap((way) => Array.from({ length: PER_ROUND[kind] }, () => walk(kind, way))));
  return {
    labels: {
      oneHop: '1-hop, ordinary tables',
      hubOneHop: `1-hop downstream of the largest hub (${fmt(fanOut(graph.hubs[0]))})`,
      threeHops: `3-hop downstream of a hub (${fmt(hubReach.total)})`,
      closure: `full downstream closure (${fmt(closure.total)})`,
    },
    warmUp: KINDS.flatMap((kind) => WAYS.map((way) => walk(kind, way))),
    rounds: Array.from({ length: ROUNDS }, round),
  };
}

async function measure(size: number): Promise<void> {
  console.log(`\n=== ${fmt(size)} datasets, ${flags.postgres ? 'PostgreSQL' : 'SQLite'} ===`);
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
    const { labels, warmUp, rounds } = await loadAndPlan(size, services);
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
    const check = (w: Walk, total: number, partial: boolean) => {
      if (partial || total !== w.expected) throw new Error(`${w.way}: ${w.direction} ${w.maxHops} hops from ${w.urn}: ${total} reached${partial ? ' (partial)' : ''}, the graph has ${w.expected}`);
    };
    const run = async (w: Walk): Promise<number> => {
      const t0 = performance.now();
      if (w.way === 'service') {
        const page = await lineage.page({ root: w.urn, direction: w.direction, maxHops: w.maxHops, budgetMs: 60_000, includeRemoved: false }, { entityTypes: [], platforms: [], degrees: [] }, 0, 100);
        const ms = performance.now() - t0;
        check(w, page.total, page.partial);
        return ms;
      }
      const res = await fetch(`${base}/openapi/v3/lineage/dataset/${encodeURIComponent(w.urn)}?direction=${w.direction}&maxHops=${w.maxHops}&budgetMs=60000`, { headers: { authorization: `Bearer ${SECRET}` } });
      const body = (await res.json()) as { total: number; partial: boolean };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      check(w, body.total, body.partial);
      return ms;
    };

    for (const w of warmUp) await run(w);
    console.log(`\nwalks: ${ROUNDS} interleaved rounds, each ${KINDS.map((k) => `${PER_ROUND[k]} ${k}`).join(', ')}, through the service and through HTTP; load average ${loadAverage()}`);
    const times = new Map<string, number[]>();
    const began = performance.now();
    for (const w of rounds.flat()) {
      const ms = await run(w);
      times.set(`${w.way} ${w.kind}`, [...(times.get(`${w.way} ${w.kind}`) ?? []), ms]);
    }
    console.log(`walks took ${fmt((performance.now() - began) / 1000)} s; load average ${loadAverage()}\n`);

    const header = ['walk', 'through', 'n', 'median ms', 'p95 ms', 'max ms', 'target at 1M (p95)'];
    const rows: string[][] = [];
    for (const kind of KINDS) {
      for (const way of WAYS) {
        const xs = times.get(`${way} ${kind}`)!;
        const target = kind === 'hubOneHop' ? undefined : TARGETS[kind];
        const p95 = percentile(xs, 95);
        rows.push([labels[kind], way, String(xs.length), fmt(percentile(xs, 50), 2), fmt(p95, 2), fmt(Math.max(...xs), 2), target === undefined ? '—' : `< ${fmt(target)} ms: ${p95 < target ? 'met' : 'NOT MET'}`]);
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
