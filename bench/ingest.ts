/**
 * Connector-shaped ingestion benchmark: how fast urnbase takes a warehouse's tables as an
 * ingestion connector sends them, against the storage floor (the same rows written by the
 * database driver alone: bench/ingest-floor.ts says what it writes and why it is comparable).
 *
 * Each table has ten aspects (bench/ingest-tables.ts): datasetProperties, schemaMetadata with 30
 * fields, ownership, globalTags, upstreamLineage (2 upstreams, other tables of the warehouse),
 * browsePathsV2, subTypes, status, dataPlatformInstance and a datasetProfile (timeseries). They
 * are sent 10 tables a request (100 aspects) over 4 concurrent keep-alive connections:
 * - restli: `POST /aspects?action=ingestProposalBatch` (X-RestLi-Protocol-Version 2.0.0), as
 *   DataHub's Python emitter's batch sends them;
 * - v3: `POST /openapi/v3/entity/dataset?async=false`, `[{urn, <aspect>: {value}}…]`.
 * Every request body is serialised before the clock starts; the generator's own CPU is reported.
 * Each mode writes into a fresh store (a temp data dir, or a fresh PostgreSQL database). After the
 * load every aspect is read back (v3 batchGet, which includes the latest timeseries point) and
 * compared with what was sent; a missing or different aspect, or any non-2xx answer, fails the
 * run (exit 1). The floor runs once, on the rows of the first mode's store.
 *
 * usage: node dist/bench/ingest.js [--tables <n>] [--mode restli|v3|both] [--postgres] [--keep] [--quick]
 *   --tables <n>  tables per mode (default 5,000; 100 with --quick), a multiple of 10 is best
 *   --postgres    fresh databases on URNBASE_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432)
 *   --keep        keep the data dirs / databases (their names are printed)
 *   --quick       a smoke run (100 tables unless --tables says otherwise)
 */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { cpuTime, ownCpuSeconds, serverCpu, serverSeconds } from './cpu.js';
import { authHeaders, benchDatabase, fmt, loadAverage, makeTempDir, mib as mibOf, percentile, removeTempDir, startUrnbase } from './harness.js';
import { postgresFloor, readPostgresRows, readSqliteRows, sqliteFloor, type FloorResult, type FloorRows } from './ingest-floor.js';
import { ASPECTS_PER_TABLE, restliBody, TABLES_PER_REQUEST, tableAspects, tableUrn, v3Body } from './ingest-tables.js';

const { values: flags } = parseArgs({
  options: {
    tables: { type: 'string' },
    mode: { type: 'string', default: 'both' },
    postgres: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
  },
});
const TABLES = Number(flags.tables ?? (flags.quick ? 100 : 5000));
if (!Number.isInteger(TABLES) || TABLES < 1) throw new Error(`--tables expects a positive integer, got ${JSON.stringify(flags.tables)}`);
const MODES = { restli: ['restli'], v3: ['v3'], both: ['restli', 'v3'] }[flags.mode as string] as Mode[] | undefined;
if (!MODES) throw new Error(`--mode expects restli, v3 or both, got ${JSON.stringify(flags.mode)}`);
const CONNECTIONS = 4;
const VERIFY_BATCH = 500;
type Mode = 'restli' | 'v3';

const load = loadAverage;
const mib = (bytes: number) => mibOf(bytes, 1);

/** The warehouse: each table's URN and aspects (the same for every mode). */
const warehouse = Array.from({ length: TABLES }, (_, i) => ({ urn: tableUrn(i), aspects: tableAspects(i, TABLES) }));
const requestOf = new Map(warehouse.map((t, i) => [t.urn, Math.floor(i / TABLES_PER_REQUEST)]));

interface Store {
  dataDir: string;
  database?: Awaited<ReturnType<typeof benchDatabase>>;
  size: () => Promise<number>;
  remove: () => Promise<void>;
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function freshStore(label: string): Promise<Store> {
  const dataDir = flags.keep ? await mkdtemp(path.join(os.tmpdir(), `urnbase-ingest-${label}-`)) : await makeTempDir(`urnbase-ingest-${label}-`);
  const database = flags.postgres ? await benchDatabase() : undefined;
  if (flags.keep) console.log(`  kept: ${database ? database.url : dataDir}`);
  return {
    dataDir,
    database,
    size: () => (database ? database.size() : dirBytes(dataDir)),
    remove: async () => {
      if (flags.keep) return;
      await database?.drop();
      await removeTempDir(dataDir);
    },
  };
}

/** urnbase's peak resident set (VmHWM) and current one, from /proc. */
async function memory(pid: number): Promise<{ peak: number; now: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(/\d+/.exec(status.split('\n').find((l) => l.startsWith(key)) ?? '')?.[0] ?? NaN) * 1024;
  return { peak: kib('VmHWM:'), now: kib('VmRSS:') };
}

interface Sent {
  seconds: number;
  requests: number;
  failures: string[];
  latenciesMs: number[];
  generatorCpu: number;
  serverCpu: number;
  /** PostgreSQL: its server processes' CPU seconds for urnbase's connections. */
  databaseCpu?: number;
}

/** Sends the bodies over CONNECTIONS keep-alive connections, one request in flight on each. */
async function send(base: string, pid: number, mode: Mode, bodies: Buffer[], databaseUrl: string | undefined): Promise<Sent> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = mode === 'restli' ? '/aspects?action=ingestProposalBatch' : '/openapi/v3/entity/dataset?async=false';
  const headers = { ...authHeaders(), 'content-type': 'application/json', ...(mode === 'restli' ? { 'x-restli-protocol-version': '2.0.0' } : {}) };
  const failures: string[] = [];
  const latenciesMs: number[] = [];
  const post = (body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        { host: url.hostname, port: url.port, path: target, method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            latenciesMs.push(performance.now() - t0);
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) failures.push(`HTTP ${status}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`);
            resolve();
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const database0 = await serverCpu(databaseUrl);
  const server0 = await cpuTime(pid);
  const cpu0 = ownCpuSeconds();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < bodies.length) await post(bodies[next++]);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const generatorCpu = ownCpuSeconds() - cpu0;
  const server1 = await cpuTime(pid);
  const databaseCpu = databaseUrl === undefined ? undefined : serverSeconds(database0, await serverCpu(databaseUrl));
  agent.destroy();
  return { seconds, requests: bodies.length, failures, latenciesMs, generatorCpu, serverCpu: server1.user + server1.system - server0.user - server0.system, databaseCpu };
}

/** Reads every table back (v3 batchGet) and compares each aspect with what was sent. */
async function verify(base: string): Promise<{ verified: number; problems: string[] }> {
  let verified = 0;
  const problems: string[] = [];
  for (let start = 0; start < warehouse.length; start += VERIFY_BATCH) {
    const slice = warehouse.slice(start, start + VERIFY_BATCH);
    const res = await fetch(`${base}/openapi/v3/entity/dataset/batchGet`, {
      method: 'POST',
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify(slice.map(({ urn }) => ({ urn }))),
    });
    const text = await res.text();
    if (!res.ok) {
      problems.push(`batchGet: HTTP ${res.status} ${text.slice(0, 300)}`);
      continue;
    }
    const found = new Map((JSON.parse(text) as Array<Record<string, unknown>>).map((e) => [e.urn as string, e]));
    for (const { urn, aspects } of slice) {
      const entity = found.get(urn);
      for (const [name, sent] of Object.entries(aspects)) {
        const got = (entity?.[name] as { value?: unknown } | undefined)?.value;
        if (got === undefined) problems.push(`${urn} ${name}: missing`);
        else if (!isDeepStrictEqual(got, JSON.parse(JSON.stringify(sent)))) problems.push(`${urn} ${name}: read back ${JSON.stringify(got).slice(0, 200)}, sent ${JSON.stringify(sent).slice(0, 200)}`);
        else verified++;
      }
    }
  }
  return { verified, problems };
}

interface ModeResult {
  mode: Mode;
  sent: Sent;
  verified: number;
  peakRss: number;
  bytes: number;
  emptyBytes: number;
}

async function runMode(mode: Mode, floorRows: { rows?: FloorRows }): Promise<ModeResult> {
  console.log(`\n${mode}: ${fmt(TABLES)} tables, ${fmt(Math.ceil(TABLES / TABLES_PER_REQUEST))} requests of ${TABLES_PER_REQUEST} tables, ${CONNECTIONS} keep-alive connections; load average ${load()}`);
  const store = await freshStore(mode);
  try {
    const server = await startUrnbase(store.dataDir, store.database ? ['--database-url', store.database.url] : []);
    let sent: Sent;
    let verified: { verified: number; problems: string[] };
    let rss: { peak: number; now: number };
    // The empty catalog (its schema and the entities urnbase writes at its first start), to count the growth alone.
    const emptyBytes = await store.size();
    try {
      const bodies: Buffer[] = [];
      for (let start = 0; start < TABLES; start += TABLES_PER_REQUEST) {
        const tables = warehouse.slice(start, start + TABLES_PER_REQUEST);
        bodies.push(Buffer.from(mode === 'restli' ? restliBody(tables) : v3Body(tables)));
      }
      const bodyBytes = bodies.reduce((n, b) => n + b.length, 0);
      console.log(`  bodies built before the clock: ${mib(bodyBytes)} (${fmt(bodyBytes / bodies.length / 1024, 1)} KiB a request)`);
      sent = await send(server.base, server.pid, mode, bodies, store.database?.url);
      rss = await memory(server.pid);
      verified = await verify(server.base);
    } finally {
      await server.stop();
    }
    const bytes = await store.size();
    if (!floorRows.rows) {
      floorRows.rows = store.database ? await readPostgresRows(store.database.url, (urn) => requestOf.get(urn)) : readSqliteRows(path.join(store.dataDir, 'urnbase.db'), (urn) => requestOf.get(urn));
    }
    const { seconds, requests, failures, latenciesMs, generatorCpu, serverCpu, databaseCpu } = sent;
    latenciesMs.sort((a, b) => a - b);
    const pct = (p: number) => percentile(latenciesMs, p);
    console.log(`  ${fmt(TABLES)} tables in ${fmt(seconds, 2)} s: ${fmt(TABLES / seconds)} tables/s, ${fmt((TABLES * ASPECTS_PER_TABLE) / seconds)} aspects/s, ${fmt(requests / seconds, 1)} requests/s`);
    console.log(`  request latency p50 ${fmt(pct(50), 1)} ms, p99 ${fmt(pct(99), 1)} ms, max ${fmt(latenciesMs[latenciesMs.length - 1], 1)} ms; non-2xx answers: ${failures.length}`);
    console.log(
      `  CPU: urnbase ${fmt(serverCpu, 1)} s (${fmt((serverCpu * 1e6) / (TABLES * ASPECTS_PER_TABLE))} µs an aspect), ` +
        (databaseCpu === undefined ? '' : `PostgreSQL's processes ${fmt(databaseCpu, 1)} s, `) +
        `load generator ${fmt(generatorCpu, 1)} s (${fmt((generatorCpu * 1e6) / requests)} µs a request, ${fmt((100 * generatorCpu) / seconds)}% of a core)`,
    );
    console.log(`  urnbase RSS: peak ${mib(rss.peak)} (VmHWM), ${mib(rss.now)} at the end of the load`);
    console.log(
      `  catalog after: ${mib(bytes)} (${store.database ? 'pg_database_size' : 'data dir, after urnbase stopped'}), ${mib(emptyBytes)} before the load: ` +
        `${fmt((bytes - emptyBytes) / TABLES)} bytes a table`,
    );
    console.log(`  verified: ${fmt(verified.verified)} of ${fmt(TABLES * ASPECTS_PER_TABLE)} aspects read back equal to what was sent`);
    const problems = [...failures, ...verified.problems];
    if (problems.length > 0) {
      console.log(`  !!! ${problems.length} problem(s):`);
      for (const p of problems.slice(0, 20)) console.log(`  !!!   ${p}`);
      process.exitCode = 1;
    }
    return { mode, sent, verified: verified.verified, peakRss: rss.peak, bytes, emptyBytes };
  } finally {
    await store.remove();
  }
}

async function runFloor(rows: FloorRows): Promise<FloorResult> {
  const store = await freshStore('floor');
  try {
    const result = store.database
      ? await postgresFloor(store.database.url, rows, CONNECTIONS, store.size)
      : await sqliteFloor(path.join(store.dataDir, 'urnbase.db'), rows, store.size);
    return { ...result, bytes: await store.size() };
  } finally {
    await store.remove();
  }
}

async function main(): Promise<void> {
  const storeName = flags.postgres ? 'PostgreSQL' : 'SQLite';
  console.log(`urnbase ingestion benchmark: ${fmt(TABLES)} tables × ${ASPECTS_PER_TABLE} aspects per mode (${MODES!.join(', ')}), on ${storeName}`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${load()}; ${new Date().toISOString()}`);
  console.log('auth ON: urnbase started with an admin token; every request sends it');
  const floorRows: { rows?: FloorRows } = {};
  const results: ModeResult[] = [];
  for (const mode of MODES!) results.push(await runMode(mode, floorRows));
  const rows = floorRows.rows!;
  if (rows.transactions.length !== Math.ceil(TABLES / TABLES_PER_REQUEST)) {
    throw new Error(`the floor found the rows of ${rows.transactions.length} requests' worth of tables in urnbase's store, expected ${Math.ceil(TABLES / TABLES_PER_REQUEST)}`);
  }
  console.log(`\nstorage floor (${flags.postgres ? 'pg alone, one statement a transaction, 4 connections' : 'better-sqlite3 alone, one connection'}), the rows of the ${results[0].mode} run, ${TABLES_PER_REQUEST} tables a transaction:`);
  console.log(`  rows: ${Object.entries(rows.counts).map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}`);
  const floor = await runFloor(rows);
  const floorRate = TABLES / floor.seconds;
  console.log(
    `  ${fmt(floor.transactions)} transactions in ${fmt(floor.seconds, 2)} s: ${fmt(floorRate)} tables/s, ${fmt((TABLES * ASPECTS_PER_TABLE) / floor.seconds)} aspects/s; ` +
      `CPU of this process ${fmt(floor.cpuSeconds, 1)} s${floor.databaseCpuSeconds === undefined ? '' : `, of PostgreSQL's ${fmt(floor.databaseCpuSeconds, 1)} s`}; size ${mib(floor.bytes)}, ${mib(floor.emptyBytes)} with the schema alone: ${fmt((floor.bytes - floor.emptyBytes) / TABLES)} bytes a table`,
  );
  console.log('\nsummary (a busy, shared 2-core machine unless said otherwise):');
  for (const r of results) {
    const rate = TABLES / r.sent.seconds;
    const hours = 1e6 / rate / 3600;
    console.log(
      `  ${r.mode.padEnd(6)} ${fmt(rate)} tables/s (${fmt(rate * ASPECTS_PER_TABLE)} aspects/s) = ${(rate / floorRate).toFixed(2)}× the floor's ${fmt(floorRate)} tables/s; ` +
        `peak RSS ${mib(r.peakRss)}; ${fmt((r.bytes - r.emptyBytes) / TABLES)} bytes a table; ` +
        `EXTRAPOLATION, not measured: 1M tables at this rate ≈ ${hours >= 1 ? `${fmt(hours, 1)} h` : `${fmt(hours * 60)} min`}`,
    );
  }
  // On a busy machine rates move with the neighbours' load; CPU time per table moves far less.
  const floorCpu = floor.cpuSeconds + (floor.databaseCpuSeconds ?? 0);
  for (const r of results) {
    const cpu = r.sent.serverCpu + (r.sent.databaseCpu ?? 0);
    console.log(
      `  ${r.mode.padEnd(6)} CPU a table: ${fmt((cpu * 1e3) / TABLES, 2)} ms (urnbase${r.sent.databaseCpu === undefined ? '' : ' + PostgreSQL'}) against the floor's ` +
        `${fmt((floorCpu * 1e3) / TABLES, 2)} ms (driver${floor.databaseCpuSeconds === undefined ? ' and SQLite' : ' + PostgreSQL'}): ${(floorCpu / cpu).toFixed(2)}× by CPU`,
    );
  }
  const total = results.reduce((n, r) => n + r.verified, 0);
  console.log(`verified: ${fmt(total)} aspects read back equal to what was sent (${results.length} mode(s) × ${fmt(TABLES * ASPECTS_PER_TABLE)})`);
  if (process.exitCode === 1) console.log('FAILED: see the problems above');
}

await main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
