/**
 * What the load benchmarks share: settings, the bare and urnbase child processes, the seeded
 * datasets, the bare baseline, interleaved wrk rounds, write verification and the report.
 * A benchmark is a Suite handed to runSuite. The machine is small and shared, so each scenario
 * runs in several interleaved rounds and we report medians and ratios against the bare server.
 *
 * urnbase runs with authentication on, as `urnbase serve` does by default: it is started with a
 * random admin secret in URNBASE_ADMIN_TOKEN, and every request of a benchmark (wrk's and
 * the seeding and verification fetches) sends it as `Authorization: Bearer <secret>`. Requests to
 * the bare server send the same header (which it ignores), so both sides parse the same headers.
 *
 * urnbase runs as `npm start` runs it: the default configuration (info logging, tests on change,
 * metrics, auth), but for its port and data dir. Its log lines go to a file in the bench's temporary
 * directory (writing them is part of what a request costs; the report gives their count and size).
 *
 * options: [--duration <s>] [--rounds <n>] [--connections <n>] [--quick] [--profile <dir>] [--no-auth] [--costs]
 *   --quick (or BENCH_QUICK=1)  1 s per run, 1 round: a smoke check
 *   --profile <dir>             run urnbase under node --cpu-prof, profiles written to <dir>
 *   --no-auth                   run urnbase with --auth false, for comparison (the header is still sent)
 *   --costs                     what each default costs: also run urnbase with one default switched off
 *                               at a time (COST_VARIANTS), each scenario on each of them in the same
 *                               interleaved rounds, and report each default's share of throughput
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import pg from 'pg';
import { cpuTime } from './cpu.js';
import { requireWrk, runStaticWrk, runWrk, writeRequests, type HttpRequest, type WrkResult } from './wrk.js';

const HERE = path.dirname(fileURLToPath(import.meta.url)); // dist/bench
const URNBASE_MAIN = path.resolve(HERE, '../src/main.js');
const BARE_MAIN = path.resolve(HERE, 'bare-server.js');

interface Settings {
  duration: number;
  rounds: number;
  connections: number;
  warmup: number;
  profileDir?: string;
  /** Whether urnbase runs with authentication on (the default; off with --no-auth). */
  auth: boolean;
  /** Whether urnbase runs on PostgreSQL (a fresh database: --postgres) instead of SQLite. */
  postgres: boolean;
  /** Whether urnbase also runs with each costly default switched off (--costs). */
  costs: boolean;
}

/** The flags every benchmark takes; a suite may accept more (Suite.options) and read them itself. */
export const HARNESS_OPTIONS = {
  duration: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '3' },
  connections: { type: 'string', default: '16' },
  quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
  profile: { type: 'string' },
  'no-auth': { type: 'boolean', default: false },
  postgres: { type: 'boolean', default: false },
  costs: { type: 'boolean', default: false },
} satisfies NonNullable<ParseArgsConfig['options']>;

function settings(extra: NonNullable<ParseArgsConfig['options']> = {}): Settings {
  const { values } = parseArgs({ options: { ...HARNESS_OPTIONS, ...extra } });
  const positive = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} expects a positive integer, got ${JSON.stringify(raw)}`);
    return n;
  };
  const duration = values.quick ? 1 : positive('duration', values.duration);
  return {
    duration,
    rounds: values.quick ? 1 : positive('rounds', values.rounds),
    connections: positive('connections', values.connections),
    warmup: Math.min(2, duration),
    profileDir: values.profile && path.resolve(values.profile),
    auth: !values['no-auth'],
    postgres: values.postgres,
    costs: values.costs,
  };
}

/**
 * The defaults of `urnbase serve` that cost throughput, each switched off on its own by --costs.
 * Metrics have no option (they are always on), so their cost is not among these.
 */
export const COST_VARIANTS: ReadonlyArray<{ name: string; args: string[]; what: string }> = [
  { name: 'log-level warn', args: ['--log-level', 'warn'], what: 'per-request logging (--log-level info)' },
  { name: 'tests-on-change false', args: ['--tests-on-change', 'false'], what: 'metadata tests on change (--tests-on-change true)' },
  { name: 'auth false', args: ['--auth', 'false'], what: 'authentication (--auth true)' },
];

/**
 * A fresh PostgreSQL database for one benchmark server, dropped afterwards. The server is
 * URNBASE_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432, whose user may create
 * databases). `kept`: the database urnbase_bench_<kept>, made if missing and never dropped
 * (drop does nothing), for a closer look or a later run on top.
 */
export async function benchDatabase(kept?: string): Promise<{ url: string; size: () => Promise<number>; drop: () => Promise<void> }> {
  const server = process.env.URNBASE_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';
  if (kept !== undefined && !/^[a-z0-9_]+$/.test(kept)) throw new Error(`a kept database's name is lower-case letters, digits and _, got ${JSON.stringify(kept)}`);
  const name = kept === undefined ? `urnbase_bench_${process.pid}_${randomBytes(4).toString('hex')}` : `urnbase_bench_${kept}`;
  const admin = async (sql: string): Promise<unknown[]> => {
    const client = new pg.Client({ connectionString: `${server}/postgres` });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  const exists = kept !== undefined && (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).length > 0;
  if (!exists) await admin(`CREATE DATABASE ${name}`);
  return {
    url: `${server}/${name}`,
    size: async () => Number(((await admin(`SELECT pg_database_size('${name}') AS bytes`))[0] as { bytes: string }).bytes),
    drop: async () => {
      if (kept === undefined) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

// ---------------------------------------------------------------- child processes

const children = new Set<ChildProcess>();
const tmpDirs = new Set<string>();
// A synchronous last resort, for crashes and interrupts: never leave servers or data behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

/** A temporary directory, removed by removeTempDir or, failing that, when the process exits. */
export async function makeTempDir(prefix = 'urnbase-bench-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tmpDirs.add(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  tmpDirs.delete(dir);
}

/** A child process; its stdout goes to `logFile` when given (urnbase's log lines), else to ours. */
function start(name: string, args: string[], env: NodeJS.ProcessEnv = process.env, logFile?: string): ChildProcess {
  const out = logFile === undefined ? 'inherit' : openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'inherit'], env });
  if (typeof out === 'number') closeSync(out); // the child holds its own copy
  children.add(child);
  child.once('exit', (code, signal) => {
    if (children.delete(child)) process.stderr.write(`${name} exited unexpectedly (code ${code}, signal ${signal})\n`);
  });
  return child;
}

/** SIGTERM lets urnbase close the store (and write a CPU profile); SIGKILL if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  if (!children.delete(child) || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server for ${url} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 30 s`);
}

/**
 * A urnbase server on its own data dir, with authentication on (requests send authHeaders()),
 * for benchmarks that drive it themselves. `stop` ends it with SIGTERM, as an operator would.
 */
export async function startUrnbase(
  dataDir: string,
  extraArgs: string[] = [],
  /** Node's own flags (e.g. --cpu-prof). */
  nodeArgs: string[] = [],
): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start(
    'urnbase',
    [...nodeArgs, URNBASE_MAIN, 'serve', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn', '--auth', 'true', ...extraArgs],
    { ...process.env, URNBASE_ADMIN_TOKEN: ADMIN_SECRET },
  );
  await waitUntilUp(`${base}/health`, child);
  return { base, pid: child.pid!, stop: () => stop(child) };
}

// ---------------------------------------------------------------- workload

export const DATASETS = 1000;
export const SEED_BATCH = 100;
export const V2 = '/openapi/v2/entity';

/** The admin secret urnbase is started with (URNBASE_ADMIN_TOKEN), new for every benchmark run. */
const ADMIN_SECRET = `urnb_bench_${randomBytes(24).toString('hex')}`;
const AUTHORIZATION = `Bearer ${ADMIN_SECRET}`;
/** The headers every request sends: the admin token. */
export const authHeaders = (): Record<string, string> => ({ authorization: AUTHORIZATION });
/** The admin token and a JSON content type (or another one, e.g. application/json-patch+json). */
export const jsonHeaders = (contentType = 'application/json'): Record<string, string> => ({
  'content-type': contentType,
  authorization: AUTHORIZATION,
});

export const datasetUrns = Array.from(
  { length: DATASETS },
  (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_${String(i).padStart(5, '0')},PROD)`,
);
export const encodedUrns = datasetUrns.map(encodeURIComponent);
export const seedTags = (i: number) => ({
  tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:tier1' }, { tag: `urn:li:tag:t${i}` }],
});

// Shared by all connections: requests rotate over the datasets; every upsert body is new.
let nextDataset = 0;
let nextTag = 1_000_000;
export const pickDataset = (): string => encodedUrns[nextDataset++ % encodedUrns.length];
export const freshTagsBody = (): string => JSON.stringify(seedTags(nextTag++));

export interface Scenario {
  name: string;
  /** urnbase: as `urnbase serve` runs by default (with --costs, also on each COST_VARIANTS server). */
  server: 'bare' | 'urnbase';
  /** Each 2xx answer must have stored one new version: checked by Suite.writtenVersions. */
  writes?: boolean;
  /** The next request (it is sent with authHeaders()); wrk replays a prepared list of them (see prepare). */
  request: () => HttpRequest;
}

export const BARE_GET: Scenario = {
  name: 'bare GET',
  server: 'bare',
  request: () => ({ method: 'GET', path: `/bare/${pickDataset()}`, headers: authHeaders() }),
};
/** The HTTP baseline of every write benchmark: the POST answered without storing anything. */
export const BARE_POST: Scenario = {
  name: 'bare POST',
  server: 'bare',
  request: () => ({ method: 'POST', path: `/bare/${pickDataset()}`, headers: jsonHeaders(), body: freshTagsBody() }),
};
/** The durable baseline of single writes (issue 39): the same POST committed to SQLite as a new version (bare-server.ts). */
export const DURABLE_POST: Scenario = {
  name: 'durable bare POST',
  server: 'bare',
  request: () => ({ method: 'POST', path: `/durable/${pickDataset()}`, headers: jsonHeaders(), body: freshTagsBody() }),
};

export async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** POSTs the datasets through the batch API, SEED_BATCH at a time, with aspects(i) for dataset i. */
export async function seedDatasets(base: string, aspects: (i: number) => Record<string, { value: unknown }>): Promise<void> {
  for (let start = 0; start < DATASETS; start += SEED_BATCH) {
    const body = datasetUrns.slice(start, start + SEED_BATCH).map((urn, j) => ({ urn, aspects: aspects(start + j) }));
    await expectOk(
      await fetch(`${base}${V2}/dataset?async=false`, { method: 'POST', headers: jsonHeaders(), body: JSON.stringify(body) }),
      'seeding',
    );
  }
}

/** The version of a dataset aspect (0 when it has none), read back through the API. */
export async function aspectVersion(base: string, encodedUrn: string, aspect: string): Promise<number> {
  const res = await fetch(`${base}${V2}/dataset/${encodedUrn}/${aspect}?systemMetadata=true`, { headers: authHeaders() });
  if (res.status === 404) {
    await res.arrayBuffer();
    return 0;
  }
  const body = (await expectOk(res, 'reading a version')) as { systemMetadata: { version: string } };
  return Number(body.systemMetadata.version);
}

/**
 * How many requests wrk replays in a cycle. A writing scenario's list is made anew for every run
 * and is long enough not to wrap at 15,000 writes/s, so every write stores a value new to its
 * dataset (a multiple of DATASETS: were it to wrap, a dataset would still get a value other than
 * its last). Reads cycle over a shorter list.
 */
const listLength = (scenario: Scenario, duration: number): number =>
  scenario.writes ? Math.ceil((15_000 * duration) / DATASETS) * DATASETS : 20 * DATASETS;

async function prepare(dir: string, base: string, scenario: Scenario, duration: number): Promise<string> {
  const file = path.join(dir, `${scenario.name.replace(/\W+/g, '-')}.requests`);
  const request = (): HttpRequest => {
    const next = scenario.request();
    return { ...next, headers: { ...authHeaders(), ...next.headers } };
  };
  await writeRequests(file, base, Array.from({ length: listLength(scenario, duration) }, request));
  return file;
}

/**
 * That urnbase's authentication is what the settings line says: with auth on, a protected route
 * answers 401 without the token and is served with it; with auth off, it is served without one.
 * (The dataset is not seeded yet, so "served" is a 404.)
 */
async function checkAuth(base: string, auth: boolean): Promise<void> {
  const url = `${base}${V2}/dataset/${encodedUrns[0]}/globalTags`;
  const status = async (headers: Record<string, string>) => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    return res.status;
  };
  const [without, withToken] = [await status({}), await status(authHeaders())];
  const expected = auth ? [401, 404] : [404, 404];
  if (without !== expected[0] || withToken !== expected[1]) {
    throw new Error(
      `auth ${auth ? 'on' : 'off'}: ${url} answered ${without} without a token and ${withToken} with the admin token, ` +
        `expected ${expected[0]} and ${expected[1]}`,
    );
  }
}

// ---------------------------------------------------------------- suite

export interface Suite {
  title: string;
  /** What is seeded, for the settings line. */
  seeded: string;
  scenarios: Scenario[];
  seed: (base: string) => Promise<void>;
  /** What the writing scenarios' requests are called in the verification line. */
  writes: string;
  /** How many new versions the writing scenarios stored, over all datasets. */
  writtenVersions: (base: string) => Promise<number>;
  /** More flags the suite accepts (beyond HARNESS_OPTIONS); it reads them itself. */
  options?: NonNullable<ParseArgsConfig['options']>;
  /** More arguments for `urnbase serve`, e.g. ['--tests-on-change', 'false']. */
  serverArgs?: string[];
  /**
   * Median req/s of scenario over median req/s of baseline, against target (SQLite's; on
   * PostgreSQL postgresTarget, none when it has none).
   */
  ratios: { label: string; scenario: string; baseline: string; target: number; postgresTarget?: number }[];
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** The p-th percentile of ascending values (nearest rank). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export const mib = (bytes: number, digits = 0): string => `${fmt(bytes / 2 ** 20, digits)} MiB`;
/** The machine's load averages, for the report's head: a busy machine moves every figure. */
export const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** A wrk run and the server's CPU time per request over it (user and kernel, µs). */
interface Measured extends WrkResult {
  cpuUs: { user: number; system: number };
}

function describeFailures(r: WrkResult): string | undefined {
  const errors = r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout;
  if (r.other === 0 && errors === 0) return undefined;
  const e = r.errors;
  return `${r.other} non-2xx (${r.otherStatuses || 'none'}), socket errors: connect ${e.connect}, read ${e.read}, write ${e.write}, timeout ${e.timeout}`;
}

/** The baselines wrk's static mode also measures, to show the scripted runs do not cap them. */
const STATIC_CHECKS: Record<string, (base: string) => { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }> = {
  [BARE_GET.name]: (base) => ({ url: `${base}/bare/${encodedUrns[0]}`, method: 'GET', headers: authHeaders() }),
  [BARE_POST.name]: (base) => ({ url: `${base}/bare/${encodedUrns[0]}`, method: 'POST', headers: jsonHeaders(), body: freshTagsBody() }),
  [DURABLE_POST.name]: (base) => ({ url: `${base}/durable/${encodedUrns[0]}`, method: 'POST', headers: jsonHeaders(), body: freshTagsBody() }),
};
/** A scripted baseline must reach this share of wrk's static mode on the same route. */
const GENERATOR_FLOOR = 0.9;

/** One urnbase server of a run: the default configuration, or (--costs) one default switched off. */
interface UrnbaseServer {
  /** 'urnbase' for the defaults, else the COST_VARIANTS name. */
  key: string;
  auth: boolean;
  base: string;
  child: ChildProcess;
  logFile: string;
}

/** A scenario as run: urnbase's scenarios run on every urnbase server of the run. */
interface Planned {
  scenario: Scenario;
  name: string;
  /** 'bare', or an UrnbaseServer's key. */
  server: string;
}

/**
 * Waits until urnbase's change log stops growing (its newest sequence, from /metrics, the same for
 * a second): what seeding set off in the background (tests on change) is then done.
 */
export async function waitUntilQuiet(base: string): Promise<void> {
  const newest = async (): Promise<string> => {
    const res = await fetch(`${base}/metrics`, { headers: authHeaders() });
    const text = await res.text();
    return /^urnbase_change_log_newest_sequence (\S+)$/m.exec(text)?.[1] ?? '';
  };
  const deadline = Date.now() + 120_000;
  let last = await newest();
  let stable = 0;
  while (stable < 5) {
    if (Date.now() > deadline) throw new Error(`${base}: the change log was still growing after 120 s of waiting`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await newest();
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}

/** Lines and bytes of a log file. */
function logSize(file: string): { lines: number; bytes: number } {
  const bytes = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (bytes === 0) return { lines: 0, bytes };
  const text = readFileSync(file);
  let lines = 0;
  for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) lines++;
  return { lines, bytes };
}

async function measure(suite: Suite): Promise<void> {
  const s = settings(suite.options);
  const wrkVersion = requireWrk();
  console.log(suite.title);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.arch()}, ` +
      `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(
    `load: ${wrkVersion}, 1 thread, ${s.connections} connections; ${s.warmup} s warm-up per scenario, ` +
      `${s.rounds} interleaved round(s) of ${s.duration} s per scenario, ` +
      `${suite.seeded}${s.profileDir ? `, urnbase under --cpu-prof → ${s.profileDir}` : ''}`,
  );
  console.log(
    s.auth
      ? 'auth ON: urnbase started with an admin token (URNBASE_ADMIN_TOKEN), every request sends Authorization: Bearer <token>'
      : 'auth OFF (--no-auth): urnbase started with --auth false; requests still send the Authorization header',
  );
  const variants = s.costs ? COST_VARIANTS.filter((v) => s.auth || !v.args.includes('--auth')) : [];
  console.log(
    `urnbase: the default configuration of \`urnbase serve\` (log level info, tests on change, metrics)` +
      `${suite.serverArgs?.length ? ` but ${suite.serverArgs.join(' ')}` : ''}, its log lines written to a file` +
      (variants.length ? `; --costs: also ${variants.length} servers, each with one default off (${variants.map((v) => v.name).join('; ')})` : '') +
      '\n',
  );

  const workDir = await makeTempDir('urnbase-bench-requests-');
  const dataDirs: string[] = [];
  const databases: Array<Awaited<ReturnType<typeof benchDatabase>>> = [];
  const barePort = await freePort();
  const bareBase = `http://127.0.0.1:${barePort}`;
  const profileArgs = s.profileDir ? ['--cpu-prof', '--cpu-prof-dir', s.profileDir] : [];
  const bare = start('bare server', [BARE_MAIN, String(barePort), path.join(workDir, 'durable-baseline.db')]);
  const servers: UrnbaseServer[] = [];
  const startServer = async (key: string, args: string[]): Promise<void> => {
    const dataDir = await makeTempDir();
    dataDirs.push(dataDir);
    const database = s.postgres ? await benchDatabase() : undefined;
    if (database) databases.push(database);
    const port = await freePort();
    const auth = args.includes('--auth') ? args[args.indexOf('--auth') + 1] === 'true' : s.auth;
    const logFile = path.join(workDir, `${key.replace(/\W+/g, '-')}.log`);
    const child = start(
      key === 'urnbase' ? 'urnbase' : `urnbase (${key})`,
      [
        ...profileArgs,
        URNBASE_MAIN,
        'serve',
        ...['--port', String(port), '--data-dir', dataDir],
        ...['--auth', String(s.auth)],
        ...(database ? ['--database-url', database.url] : []),
        ...(suite.serverArgs ?? []),
        // parseArgs keeps a repeated flag's last value: the variant's wins.
        ...args,
      ],
      auth ? { ...process.env, URNBASE_ADMIN_TOKEN: ADMIN_SECRET } : process.env,
      logFile,
    );
    servers.push({ key, auth, base: `http://127.0.0.1:${port}`, child, logFile });
  };
  try {
    await startServer('urnbase', []);
    for (const variant of variants) await startServer(variant.name, variant.args);
    if (s.postgres) console.log(`store: PostgreSQL (a fresh database per urnbase server on ${databases[0].url.replace(/\/[^/]*$/, '')})\n`);
    await waitUntilUp(`${bareBase}/bare/up`, bare);
    for (const server of servers) {
      await waitUntilUp(`${server.base}/health`, server.child);
      await checkAuth(server.base, server.auth);
      await suite.seed(server.base);
    }
    // Seeding may set off background work (tests on change): it is over before anything is measured.
    for (const server of servers) await waitUntilQuiet(server.base);
    const bases = new Map<string, string>([['bare', bareBase], ...servers.map((sv) => [sv.key, sv.base] as [string, string])]);
    const pids = new Map<string, number>([['bare', bare.pid!], ...servers.map((sv) => [sv.key, sv.child.pid!] as [string, number])]);
    const planned: Planned[] = suite.scenarios.flatMap((scenario) =>
      scenario.server === 'bare'
        ? [{ scenario, name: scenario.name, server: 'bare' }]
        : servers.map((sv) => ({ scenario, name: sv.key === 'urnbase' ? scenario.name : `${scenario.name} [${sv.key}]`, server: sv.key })),
    );

    let writesOk = 0;
    const invalid: string[] = [];
    const check = (run: Planned, r: WrkResult, label: string): void => {
      if (run.scenario.writes) writesOk += r.ok;
      const failure = describeFailures(r);
      if (failure) {
        invalid.push(`${run.name} ${label}: ${failure}`);
        console.log(`!!! INVALID RUN: ${run.name} ${label}: ${failure}`);
      }
    };
    // Read lists are made once; a writing scenario's list anew for every run (fresh values).
    const readLists = new Map<Planned, string>();
    const requestsFor = async (run: Planned, duration: number): Promise<string> => {
      if (run.scenario.writes) return prepare(workDir, bases.get(run.server)!, { ...run.scenario, name: run.name }, duration);
      if (!readLists.has(run)) readLists.set(run, await prepare(workDir, bases.get(run.server)!, { ...run.scenario, name: run.name }, duration));
      return readLists.get(run)!;
    };
    const runScenario = async (run: Planned, duration: number): Promise<Measured> => {
      const requests = await requestsFor(run, duration);
      const pid = pids.get(run.server)!;
      const before = await cpuTime(pid);
      // Every urnbase answer's status is checked; the bare route's only for >= 400 (see wrk.lua).
      const r = await runWrk(bases.get(run.server)!, requests, duration, s.connections, run.server !== 'bare');
      const after = await cpuTime(pid);
      const perRequest = (seconds: number) => (seconds * 1e6) / r.requests;
      return { ...r, cpuUs: { user: perRequest(after.user - before.user), system: perRequest(after.system - before.system) } };
    };

    for (const run of planned) check(run, await runScenario(run, s.warmup), 'warm-up');
    const statics = suite.scenarios.filter((sc) => STATIC_CHECKS[sc.name]);
    const results = new Map<Planned, Measured[]>(planned.map((run) => [run, []]));
    const staticRates = new Map<Scenario, number[]>(statics.map((sc) => [sc, []]));
    for (let round = 1; round <= s.rounds; round++) {
      const line: string[] = [];
      for (const scenario of statics) {
        const { url, method, headers, body } = STATIC_CHECKS[scenario.name](bareBase);
        const rate = await runStaticWrk(url, method, headers, body, s.duration, s.connections, workDir);
        staticRates.get(scenario)!.push(rate);
        line.push(`${scenario.name} (wrk static) ${fmt(rate)}`);
      }
      for (const run of planned) {
        const r = await runScenario(run, s.duration);
        check(run, r, `round ${round}`);
        results.get(run)!.push(r);
        line.push(`${run.name} ${fmt(r.rate)}`);
      }
      console.log(`round ${round}: ${line.join(' | ')} req/s`);
    }

    // Requests still in flight when a run ends are written but not counted: up to one per connection.
    const writers = planned.filter((run) => run.scenario.writes);
    let written = 0;
    for (const server of servers) written += await suite.writtenVersions(server.base);
    const inFlight = s.connections * (s.rounds + 1) * writers.length;
    if (written < writesOk || written > writesOk + inFlight) {
      const names = writers.map((run) => run.name).join(' + ') || 'read-only scenarios';
      invalid.push(`${names}: ${writesOk} ${suite.writes} answered 2xx but ${written} new versions were stored`);
    }
    console.log(
      writers.length > 0
        ? `${suite.writes} verified: ${writesOk} answered 2xx, ${written} new aspect versions stored (≤ ${inFlight} in flight at run ends)`
        : `${suite.writes} verified: ${written} new aspect versions stored`,
    );
    const served = (key: string) => planned.filter((run) => run.server === key).reduce((n, run) => n + results.get(run)!.reduce((m, r) => m + r.requests, 0), 0);
    for (const server of servers) {
      const { lines, bytes } = logSize(server.logFile);
      console.log(
        `urnbase${server.key === 'urnbase' ? '' : ` [${server.key}]`} logged ${fmt(lines)} lines, ${fmt(bytes / 1e6, 1)} MB` +
          ` (${fmt(served(server.key))} requests measured, besides warm-ups and seeding)`,
      );
    }
    console.log();

    const median2 = (run: Planned, f: (r: Measured) => number) => median(results.get(run)!.map(f));
    const cpu = (run: Planned) => median2(run, (r) => r.cpuUs.user + r.cpuUs.system);
    const header = ['scenario', 'req/s median', 'per round', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/req (user+sys)'];
    const rows = planned.map((run) => {
      const rs = results.get(run)!;
      return [
        run.name,
        fmt(median2(run, (r) => r.rate)),
        rs.map((r) => fmt(r.rate)).join(' / '),
        fmt(median2(run, (r) => r.latencyMs.p50), 2),
        fmt(median2(run, (r) => r.latencyMs.p99), 2),
        String(rs.reduce((n, r) => n + r.other, 0)),
        `${fmt(cpu(run))} (${fmt(median2(run, (r) => r.cpuUs.user))}+${fmt(median2(run, (r) => r.cpuUs.system))})`,
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
    console.log();

    const find = (name: string) => planned.find((run) => run.name === name)!;
    const rate = (name: string) => median2(find(name), (r) => r.rate);
    for (const scenario of statics) {
      const scripted = rate(scenario.name);
      const standalone = median(staticRates.get(scenario)!);
      const share = scripted / standalone;
      const verdict = share >= GENERATOR_FLOOR ? 'ok' : 'THE GENERATOR CAPS THE BASELINE';
      console.log(
        `generator check: ${scenario.name} ${fmt(scripted)} req/s scripted = ${(share * 100).toFixed(0)}% of wrk static ${fmt(standalone)} req/s ` +
          `(must be ≥ ${GENERATOR_FLOOR * 100}%): ${verdict}`,
      );
      if (share < GENERATOR_FLOOR) invalid.push(`${scenario.name}: the scripted load reached ${(share * 100).toFixed(0)}% of wrk's static mode`);
    }
    const labelWidth = Math.max(22, ...suite.ratios.map((r) => r.label.length));
    for (const { label, scenario, baseline, target: sqliteTarget, postgresTarget } of suite.ratios) {
      const ratio = rate(scenario) / rate(baseline);
      const target = s.postgres ? postgresTarget : sqliteTarget;
      const verdict = invalid.length ? 'INVALID' : target === undefined ? '' : ratio >= target ? 'PASS' : 'FAIL';
      const goal = target === undefined ? 'no target on this store' : `target ≥ ${target.toFixed(2)}×`;
      console.log(`${label.padEnd(labelWidth)} ${ratio.toFixed(2)}×  (${fmt(rate(scenario))} / ${fmt(rate(baseline))} req/s)  ${goal}  ${verdict}`);
    }
    if (variants.length) {
      // A default's cost: the share of the throughput urnbase has without it that it gives up with it.
      console.log('\nwhat each default costs (median req/s with the default, and with it switched off; CPU µs/req):');
      for (const scenario of suite.scenarios.filter((sc) => sc.server === 'urnbase')) {
        const withIt = find(scenario.name);
        const baseline = suite.ratios.find((r) => r.scenario === scenario.name)?.baseline;
        for (const variant of variants) {
          const without = find(`${scenario.name} [${variant.name}]`);
          const [a, b] = [median2(withIt, (r) => r.rate), median2(without, (r) => r.rate)];
          const ratios = baseline ? `; / ${baseline} ${(a / rate(baseline)).toFixed(2)}× → ${(b / rate(baseline)).toFixed(2)}×` : '';
          console.log(
            `  ${scenario.name}: ${variant.what} costs ${(((b - a) / b) * 100).toFixed(1)}% of throughput ` +
              `(${fmt(a)} req/s with it, ${fmt(b)} with ${variant.name}; CPU ${fmt(cpu(withIt))} → ${fmt(cpu(without))} µs/req${ratios})`,
          );
        }
      }
    }
    if (invalid.length) {
      console.log(`\n!!! THESE FIGURES ARE INVALID: ${invalid.length} problem(s):`);
      for (const line of invalid) console.log(`!!!   ${line}`);
    }
  } finally {
    await Promise.all([stop(bare), ...servers.map((sv) => stop(sv.child))]);
    for (const database of databases) await database.drop();
    for (const dir of dataDirs) await removeTempDir(dir);
    await removeTempDir(workDir);
  }
}

/**
 * Runs the suite and prints its report; a missed target still exits 0, a broken run exits 1.
 * Resolves to whether the run completed (callers may go on to more measurements).
 */
export function runSuite(suite: Suite): Promise<boolean> {
  return measure(suite).then(
    () => true,
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
      return false;
    },
  );
}
