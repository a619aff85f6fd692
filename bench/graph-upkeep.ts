/**
 * What keeping the graph costs a lineage write, without HTTP: the same writes of `upstreamLineage`
 * through the write path with its graph (edges drawn, diffed and written in the transaction) and
 * without (a write path built without GraphEdges, over the same store, index and registry), in
 * alternating rounds so that the machine's drift falls on both sides. Each write gives a dataset
 * three new upstreams, so each removes three edges and adds three: the most a write of that
 * lineage can cost (`--changed 3`); `--changed 1` replaces one upstream of the three (one edge
 * out, one in), `--changed 0` sends the same upstreams with a new audit stamp (a new version of
 * the aspect, no edge changes: what a re-ingestion sends). 16 writes at a time over 1,000
 * datasets, after a warm-up round of each.
 *
 * `--http`: the whole write as a client makes it, `POST /openapi/v2/entity/dataset/{urn}/upstreamLineage`
 * from wrk (16 connections) to two servers in this process, each on its own store, alike but for
 * the graph (authentication on, info logging to /dev/null, tests on change, as `urnbase serve`
 * runs); CPU a request is this process's CPU over the requests answered.
 *
 * usage: node dist/bench/graph-upkeep.js [--writes <n>] [--rounds <n>] [--changed 3|1|0] [--postgres] [--http [--duration <s>]]
 */
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { GraphEdges } from '../src/graph/edges.js';
import { DEFAULT_MAX_WRITE_CHARS, Ingest } from '../src/ingest/ingest.js';
import { SearchFields } from '../src/search/fields.js';
import { SearchIndexer } from '../src/search/indexer.js';
import { authHeaders, benchDatabase, datasetUrns, encodedUrns, fmt, jsonHeaders, makeTempDir, median, removeTempDir, V2 } from './harness.js';
import { requireWrk, runWrk, writeRequests, type HttpRequest } from './wrk.js';

const { values: flags } = parseArgs({
  options: {
    writes: { type: 'string', default: '8000' },
    rounds: { type: 'string', default: '5' },
    changed: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
    http: { type: 'boolean', default: false },
    duration: { type: 'string', default: '5' },
  },
});
const CHANGED = Number(flags.changed);
const WRITES = Number(flags.writes);
const ROUNDS = Number(flags.rounds);
const CONCURRENCY = 16;
if (!Number.isInteger(WRITES) || WRITES < CONCURRENCY || !Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--writes >= 16, --rounds >= 1');
if (![0, 1, 3].includes(CHANGED)) throw new Error('--changed 3, 1 or 0');

const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const upstream = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,upstream.t${n % 5000},PROD)`;
/** The `n`th write's upstreams of the `i`th dataset: the last CHANGED of three change with each write. */
const lineage = (i: number, n: number) => ({
  upstreams: [0, 1, 2].map((k) => ({
    dataset: upstream(k >= 3 - CHANGED ? n * 3 + k : i * 3 + k),
    type: 'TRANSFORMED',
    auditStamp: { time: n, actor: 'urn:li:corpuser:etl' },
  })),
});

type Figures = Map<string, { cpu: number[]; rate: number[] }>;

/** The medians of both sides' rounds, and the graph's share. */
function report(figures: Figures): void {
  const [withGraph, without] = [...figures.values()].map((f) => ({ cpu: median(f.cpu), rate: median(f.rate) }));
  console.log(`\nmedians: with the graph ${fmt(withGraph.cpu, 1)} µs CPU a write (${fmt(withGraph.rate)} writes/s), without ${fmt(without.cpu, 1)} µs (${fmt(without.rate)} writes/s)`);
  const change = (a: number, b: number) => `${a >= b ? '+' : '−'}${fmt((100 * Math.abs(a - b)) / b, 1)}%`;
  console.log(`edge upkeep: CPU a write ${change(withGraph.cpu, without.cpu)}, writes/s ${change(withGraph.rate, without.rate)} (target: at most +15% CPU)`);
}

if (flags.http) await overHttp();
else await inProcess();

async function inProcess(): Promise<void> {
  const dataDir = await makeTempDir('urnbase-graph-upkeep-');
  const database = flags.postgres ? await benchDatabase() : undefined;
  const { app, services } = await buildApp({
    dataDir,
    logLevel: 'warn',
    bodyLimit: 1024 * 1024,
    testsInterval: 0,
    testsOnChange: false,
    ...(database ? { databaseUrl: database.url } : {}),
  });
  try {
    const context = { actor: 'urn:li:corpuser:bench', source: 'bench' };
    const { store, registry } = services;
    // Two write paths alike but for the graph: same store, registry and search index, no listeners.
    const indexer = new SearchIndexer(registry, SearchFields.load(registry));
    const paths = {
      'with the graph': new Ingest(store, registry, new Map(), indexer, DEFAULT_MAX_WRITE_CHARS, new GraphEdges(registry)),
      'without it': new Ingest(store, registry, new Map(), indexer, DEFAULT_MAX_WRITE_CHARS),
    };
    let n = 0;
    const write = (ingest: Ingest, i: number) =>
      ingest.ingest([{ urn: datasetUrns[i % datasetUrns.length], aspect: 'upstreamLineage', changeType: 'UPSERT', value: lineage(i % datasetUrns.length, n++) }], context);
    for (let i = 0; i < datasetUrns.length; i++) await write(paths['with the graph'], i);

    console.log(`urnbase graph upkeep, in process, ${database ? 'PostgreSQL' : 'SQLite'}: ${fmt(WRITES)} writes of upstreamLineage per round (${CHANGED} edges out, ${CHANGED} in), ${CONCURRENCY} at a time`);
    console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    const figures: Figures = new Map(Object.keys(paths).map((k) => [k, { cpu: [], rate: [] }]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, ingest] of Object.entries(paths)) {
        const start = cpu();
        const began = performance.now();
        for (let i = 0; i < WRITES; i += CONCURRENCY) await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => write(ingest, i + k)));
        const perWrite = (cpu() - start) / WRITES;
        const rate = WRITES / ((performance.now() - began) / 1000);
        console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''}, ${name}: ${fmt(perWrite, 1)} µs CPU a write, ${fmt(rate)} writes/s`);
        if (round > 0) {
          figures.get(name)!.cpu.push(perWrite);
          figures.get(name)!.rate.push(rate);
        }
      }
    }
    report(figures);
  } finally {
    await app.close();
    await database?.drop();
    await removeTempDir(dataDir);
  }
}

/** The same comparison over HTTP: two servers in this process, each on its own store, loaded by wrk in turn. */
async function overHttp(): Promise<void> {
  requireWrk();
  const DURATION = Number(flags.duration);
  const secret = authHeaders().authorization.slice('Bearer '.length);
  const sides = ['with the graph', 'without it'] as const;
  const servers: Array<{ name: string; app: FastifyInstance; base: string; requestsFile: string; dataDir: string; database?: Awaited<ReturnType<typeof benchDatabase>> }> = [];
  const work = await makeTempDir('urnbase-graph-upkeep-http-');
  try {
    for (const name of sides) {
      const dataDir = await makeTempDir('urnbase-graph-upkeep-');
      const database = flags.postgres ? await benchDatabase() : undefined;
      const { app, services } = await buildApp({
        dataDir,
        logLevel: 'info',
        logStream: createWriteStream('/dev/null'),
        bodyLimit: 1024 * 1024,
        auth: true,
        adminToken: secret,
        graph: name === 'with the graph',
        ...(database ? { databaseUrl: database.url } : {}),
      });
      const context = { actor: 'urn:li:corpuser:bench', source: 'bench' };
      for (let i = 0; i < datasetUrns.length; i++) {
        await services.ingest.ingest([{ urn: datasetUrns[i], aspect: 'upstreamLineage', changeType: 'UPSERT', value: lineage(i, i) }], context);
      }
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      servers.push({ name, app, base, requestsFile: path.join(work, `requests-${servers.length}`), dataDir, database });
    }
    // Three writes of each dataset in the cycle wrk replays: each visit changes what the last one wrote.
    const requests: HttpRequest[] = [];
    for (let n = 0; n < 3 * datasetUrns.length; n++) {
      const i = n % datasetUrns.length;
      requests.push({ method: 'POST', path: `${V2}/dataset/${encodedUrns[i]}/upstreamLineage`, headers: jsonHeaders(), body: JSON.stringify(lineage(i, datasetUrns.length + n)) });
    }
    // Written once for each server (its host in every request), replayed in every round.
    for (const server of servers) await writeRequests(server.requestsFile, server.base, requests);
    console.log(`urnbase graph upkeep over HTTP, ${flags.postgres ? 'PostgreSQL' : 'SQLite'}: POST upstreamLineage (${CHANGED} edges out, ${CHANGED} in), wrk, 16 connections, ${DURATION} s a run`);
    console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    const figures: Figures = new Map(sides.map((k) => [k, { cpu: [], rate: [] }]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const server of servers) {
        const start = cpu();
        const result = await runWrk(server.base, server.requestsFile, DURATION, CONCURRENCY, false);
        if (result.other > 0 || result.errors.timeout > 0) throw new Error(`${server.name}: ${result.other} answers not 2xx (${result.otherStatuses}), ${result.errors.timeout} timeouts`);
        const perWrite = (cpu() - start) / result.requests;
        console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''}, ${server.name}: ${fmt(perWrite, 1)} µs CPU a request, ${fmt(result.rate)} requests/s, p95 ${fmt(result.latencyMs.p95, 2)} ms`);
        if (round > 0) {
          figures.get(server.name)!.cpu.push(perWrite);
          figures.get(server.name)!.rate.push(result.rate);
        }
      }
    }
    report(figures);
  } finally {
    for (const server of servers) {
      await server.app.close();
      await server.database?.drop();
      await removeTempDir(server.dataDir);
    }
    await removeTempDir(work);
  }
}
