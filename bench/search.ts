/**
 * Search scale benchmark: load datasets with 3 structured properties each through the batch API,
 * and at each checkpoint (10k, 100k, 1M entities by default) measure the latency of a property
 * filter, a free-text query and GET aspect, so that the growth of their cost shows.
 *
 * urnbase runs as a child process (authentication on) on a fresh data dir; requests come one at a
 * time from this process over HTTP, after a warm-up, each with different parameters. Reported:
 * load time and rate, database size, p50 / p95 / p99 per query kind and the server's RSS per
 * checkpoint, against the targets at 1M datasets (SQLite: property filter p95 < 25 ms, free text
 * p95 < 50 ms, GET p95 < 3 ms, RSS < 300 MiB; PostgreSQL: 50, 100 and 5 ms). Then the same free
 * text and property searches through GraphQL's searchAcrossEntities, alternating with REST's, to
 * hold GraphQL's p95 within 20% of REST's (issue 36).
 *
 * usage: node dist/bench/search.js [--checkpoints 10000,100000,1000000] [--samples 200] [--quick]
 *   --quick  checkpoints 2,000 and 10,000, 50 samples: a smoke run
 *   --loaders <n>  batches in flight while loading (default 1): a bulk loader with several
 *                  threads keeps urnbase busy while the database commits the previous batch
 *   --postgres  run urnbase on PostgreSQL (a fresh database, dropped afterwards; see benchDatabase)
 *   --profile <dir>  run urnbase under node --cpu-prof, profiles written to <dir>
 *   --keep <dir>  load into <dir> and keep it afterwards, for a closer look; a <dir> kept by an
 *                 earlier run is measured again (checkpoints it holds already are measured without
 *                 loading, the rest are loaded on top). With --postgres, <dir> names the database
 *                 kept instead: urnbase_bench_<dir>
 */
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { authHeaders, benchDatabase, expectOk, fmt, jsonHeaders, loadAverage, makeTempDir, percentile, removeTempDir, startUrnbase, V2 } from './harness.js';

const { values: flags } = parseArgs({
  options: { checkpoints: { type: 'string' }, samples: { type: 'string' }, quick: { type: 'boolean', default: false }, keep: { type: 'string' }, profile: { type: 'string' }, postgres: { type: 'boolean', default: false }, loaders: { type: 'string', default: '1' } },
});
const CHECKPOINTS = (flags.checkpoints ?? (flags.quick ? '2000,10000' : '10000,100000,1000000')).split(',').map(Number);
const SAMPLES = Number(flags.samples ?? (flags.quick ? 50 : 200));
if (CHECKPOINTS.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(SAMPLES) || SAMPLES < 1) {
  throw new Error('--checkpoints expects positive integers, --samples a positive integer');
}
const BATCH = 1000;
const LOADERS = Number(flags.loaders);
if (!Number.isInteger(LOADERS) || LOADERS < 1) throw new Error('--loaders expects a positive integer');
/** p95 targets at 1M datasets (ms): issue 21's for SQLite, issue 22's for PostgreSQL. */
const TARGETS: Record<string, number> = flags.postgres
  ? { 'property filter': 50, 'free text': 100, 'GET aspect': 5 }
  : { 'property filter': 25, 'free text': 50, 'GET aspect': 3 };
const RSS_TARGET_MB = 300;

/** The server's resident memory (Linux), in MiB. */
function rssMiB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- the catalog

const DOMAINS = ['sales', 'finance', 'hr', 'marketing', 'ops', 'product', 'support', 'legal', 'eng', 'data', 'risk', 'growth'];
const SUBJECTS = [
  'orders', 'customers', 'invoices', 'payments', 'events', 'sessions', 'users', 'accounts', 'shipments', 'products',
  'refunds', 'leads', 'campaigns', 'tickets', 'contracts', 'employees', 'payroll', 'budgets', 'forecasts', 'inventory',
  'suppliers', 'returns', 'clicks', 'impressions', 'subscriptions', 'churn', 'ledger', 'audits', 'claims', 'quotes',
];
const KINDS = ['daily', 'hourly', 'raw', 'clean', 'agg', 'snapshot', 'staging', 'mart'];
const TIERS = ['gold', 'silver', 'bronze'];
const PROPERTIES = {
  retention: 'urn:li:structuredProperty:bench.retentionDays',
  tier: 'urn:li:structuredProperty:bench.tier',
  review: 'urn:li:structuredProperty:bench.reviewDate',
};

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:${i % 3 === 0 ? 'snowflake' : 'hive'},${nameOf(i)},PROD)`;
function nameOf(i: number): string {
  return `${DOMAINS[i % DOMAINS.length]}.${SUBJECTS[(i >> 2) % SUBJECTS.length]}_${KINDS[(i >> 5) % KINDS.length]}_${i}`;
}
const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);

function dataset(i: number): { urn: string; aspects: Record<string, { value: unknown }> } {
  const name = nameOf(i);
  const [domain, table] = name.split('.');
  const subject = SUBJECTS[(i >> 2) % SUBJECTS.length];
  return {
    urn: urnOf(i),
    aspects: {
      datasetProperties: {
        value: {
          name: table,
          qualifiedName: name,
          description: `${KINDS[(i >> 5) % KINDS.length]} ${subject} of the ${domain} team, one row per ${subject.replace(/s$/, '')}`,
        },
      },
      structuredProperties: {
        value: {
          properties: [
            { propertyUrn: PROPERTIES.retention, values: [{ double: (i % 40) * 30 }] },
            { propertyUrn: PROPERTIES.tier, values: [{ string: TIERS[i % 3] }] },
            { propertyUrn: PROPERTIES.review, values: [{ string: day(i) }] },
          ],
        },
      },
    },
  };
}

const DEFINITIONS: Array<[string, object]> = [
  [PROPERTIES.retention, { qualifiedName: 'bench.retentionDays', valueType: 'urn:li:dataType:datahub.number' }],
  [PROPERTIES.tier, { qualifiedName: 'bench.tier', valueType: 'urn:li:dataType:datahub.string', allowedValues: TIERS.map((t) => ({ value: { string: t } })) }],
  [PROPERTIES.review, { qualifiedName: 'bench.reviewDate', valueType: 'urn:li:dataType:datahub.date' }],
];

// ---------------------------------------------------------------- the queries

type Query = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** Each sample differs: a random value, word or entity, drawn from what was loaded. */
const QUERIES: Record<string, (loaded: number, k: number) => Query> = {
  'property filter': (_loaded, k) => {
    const filters = [
      { field: 'structuredProperties.bench.retentionDays', condition: 'GREATER_THAN', values: [String((k % 38) * 30)] },
      { field: 'structuredProperties.bench.tier', condition: 'EQUAL', values: [TIERS[k % 3]] },
      { field: 'structuredProperties.bench.reviewDate', condition: 'LESS_THAN', values: [day(k * 7)] },
    ];
    return { method: 'POST', path: `${V2}/scroll?count=10`, body: { entities: ['dataset'], aspects: ['datasetProperties'], filter: { and: [{ criteria: [filters[k % 3]] }] } } };
  },
  'free text': (loaded, k) => {
    const words = [
      SUBJECTS[k % SUBJECTS.length],
      `${DOMAINS[k % DOMAINS.length]} ${SUBJECTS[(k * 7) % SUBJECTS.length]}`,
      String((k * 7919) % loaded),
      SUBJECTS[(k * 3) % SUBJECTS.length].slice(0, 4),
    ];
    return { method: 'GET', path: `${V2}/dataset?count=10&aspects=datasetProperties&query=${encodeURIComponent(words[k % words.length])}` };
  },
  'GET aspect': (loaded, k) => ({ method: 'GET', path: `${V2}/dataset/${encodeURIComponent(urnOf((k * 7919) % loaded))}/datasetProperties` }),
};

// ------------------------------------------------------ GraphQL against REST

/** What the SDK's search asks of each result: the URN and the dataset's properties. */
const RESULT_FIELDS = 'total searchResults { entity { urn type ... on Dataset { properties { name description } } } }';
const graphql = (input: string): Query => ({ method: 'POST', path: '/api/graphql', body: { query: `{ searchAcrossEntities(input: ${input}) { ${RESULT_FIELDS} } }` } });

/**
 * Issue 36's target: searchAcrossEntities p95 within 20% of the REST search. Each pair asks the same
 * search of both APIs (same words or filter, 10 results, the dataset's properties); their samples
 * alternate so that both sides meet the same machine.
 */
const PAIRS: Record<string, { rest: (loaded: number, k: number) => Query; graphql: (loaded: number, k: number) => Query }> = {
  'free text': {
    rest: QUERIES['free text'],
    graphql: (loaded, k) => {
      const words = [SUBJECTS[k % SUBJECTS.length], `${DOMAINS[k % DOMAINS.length]} ${SUBJECTS[(k * 7) % SUBJECTS.length]}`, String((k * 7919) % loaded), SUBJECTS[(k * 3) % SUBJECTS.length].slice(0, 4)];
      return graphql(`{ types: [DATASET], query: ${JSON.stringify(words[k % words.length])}, start: 0, count: 10 }`);
    },
  },
  'property filter': {
    rest: (_loaded, k) => ({
      method: 'POST',
      path: `${V2}/scroll?count=10`,
      body: { entities: ['dataset'], aspects: ['datasetProperties'], filter: { and: [{ criteria: [{ field: 'structuredProperties.bench.tier', condition: 'EQUAL', values: [TIERS[k % 3]] }] }] } },
    }),
    graphql: (_loaded, k) =>
      graphql(`{ types: [DATASET], query: "*", start: 0, count: 10, orFilters: [{ and: [{ field: "structuredProperties.bench.tier", condition: EQUAL, values: [${JSON.stringify(TIERS[k % 3])}] }] }] }`),
  },
};
const GRAPHQL_RATIO_TARGET = 1.2;

async function request(base: string, q: Query): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}${q.path}`, { method: q.method, headers: q.body === undefined ? authHeaders() : jsonHeaders(), body: q.body === undefined ? undefined : JSON.stringify(q.body) });
  const body = await expectOk(res, `${q.method} ${q.path}`);
  // GraphQL answers its errors with 200: a refused query must not pass for a fast one.
  if (q.path === '/api/graphql' && (body as { errors?: unknown }).errors) throw new Error(`GraphQL refused: ${JSON.stringify(body).slice(0, 500)}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}


// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  console.log('urnbase search scale benchmark');
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${loadAverage()}; ` +
      `checkpoints ${CHECKPOINTS.map((n) => fmt(n)).join(', ')}; ${SAMPLES} sequential requests per query kind and checkpoint\n`,
  );
  const keptDir = flags.keep !== undefined && !flags.postgres;
  const dataDir = keptDir ? path.resolve(flags.keep!) : await makeTempDir('urnbase-search-');
  const database = flags.postgres ? await benchDatabase(flags.keep) : undefined;
  const server = await startUrnbase(dataDir, ['--tests-on-change', 'false', '--tests-interval', '0', ...(database ? ['--database-url', database.url] : [])], flags.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(flags.profile)] : []);
  console.log(`store: ${database ? 'PostgreSQL' : 'SQLite'}\n`);
  const rows: string[] = [];
  let loadedAtEnd = 0;
  try {
    const existing = await fetch(`${server.base}${V2}/dataset?count=1`, { headers: authHeaders() });
    let loaded = ((await expectOk(existing, 'counting datasets')) as { totalCount: number }).totalCount;
    if (loaded > 0) console.log(`${fmt(loaded)} datasets in ${dataDir} already: measured again, not loaded\n`);
    for (const [urn, definition] of DEFINITIONS) {
      await expectOk(
        await fetch(`${server.base}${V2}/structuredProperty/${encodeURIComponent(urn)}/propertyDefinition`, {
          method: 'POST',
          headers: jsonHeaders(),
          body: JSON.stringify({ ...definition, cardinality: 'SINGLE', entityTypes: ['urn:li:entityType:datahub.dataset'] }),
        }),
        'defining a property',
      );
    }
    const before = loaded;
    let loadSeconds = 0;
    /** Batches answered 503 and sent again (the wait counts in the load time). */
    let resent = 0;
    for (const checkpoint of CHECKPOINTS) {
      if (checkpoint < loaded) continue;
      const [segmentStart, segmentSecondsBefore] = [loaded, loadSeconds];
      // LOADERS batches in flight; the load time is the segment's wall time.
      let next = loaded;
      const t0 = process.hrtime.bigint();
      const loader = async () => {
        while (next < checkpoint) {
          const size = Math.min(BATCH, checkpoint - next);
          const first = next;
          next += size;
          const body = JSON.stringify(Array.from({ length: size }, (_, j) => dataset(first + j)));
          for (let attempt = 1; ; attempt++) {
            const res = await fetch(`${server.base}${V2}/dataset?async=true`, { method: 'POST', headers: jsonHeaders(), body });
            // 503: the database did not answer within --db-timeout, nothing was written, come back
            // after Retry-After. A bulk loader sends the batch again; each time is counted and shown.
            if (res.status === 503 && attempt <= 3) {
              resent++;
              await res.arrayBuffer();
              await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 2) * 1000));
              continue;
            }
            await expectOk(res, 'loading');
            break;
          }
        }
      };
      await Promise.all(Array.from({ length: LOADERS }, loader));
      loadSeconds += Number(process.hrtime.bigint() - t0) / 1e9;
      loaded = checkpoint;
      const bytes = database ? await database.size() : ['urnbase.db', 'urnbase.db-wal'].reduce((n, f) => {
        try {
          return n + statSync(path.join(dataDir, f)).size;
        } catch {
          return n;
        }
      }, 0);
      const segment = loaded > segmentStart ? `, ${fmt((loaded - segmentStart) / (loadSeconds - segmentSecondsBefore))} datasets/s since the last checkpoint` : '';
      const rate = loaded > before ? `${fmt(loadSeconds, 1)} s in all (${fmt((loaded - before) / loadSeconds)} datasets/s${segment})` : 'loaded before';
      const again = resent > 0 ? `; ${resent} batches answered 503 and were sent again` : '';
      console.log(`${fmt(loaded)} datasets loaded: ${rate}, database ${fmt(bytes / 2 ** 20)} MiB (${fmt(bytes / loaded)} bytes per dataset, write-ahead log included)${again}`);
      for (const [kind, make] of Object.entries(QUERIES)) {
        for (let k = 0; k < 20; k++) await request(server.base, make(loaded, 10_000 + k)); // warm-up
        const times: number[] = [];
        for (let k = 0; k < SAMPLES; k++) times.push(await request(server.base, make(loaded, k)));
        times.sort((a, b) => a - b);
        const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p));
        const target = TARGETS[kind];
        const verdict = target === undefined || loaded < 1_000_000 ? '' : `  target at 1M p95 < ${target} ms  ${p95 < target ? 'PASS' : 'FAIL'}`;
        const row = `${fmt(loaded).padStart(9)}  ${kind.padEnd(16)} p50 ${fmt(p50, 1).padStart(6)} ms  p95 ${fmt(p95, 1).padStart(6)} ms  p99 ${fmt(p99, 1).padStart(6)} ms${verdict}`;
        console.log(`  ${row}`);
        rows.push(row);
      }
      for (const [kind, pair] of Object.entries(PAIRS)) {
        for (let k = 0; k < 20; k++) {
          await request(server.base, pair.rest(loaded, 10_000 + k));
          await request(server.base, pair.graphql(loaded, 10_000 + k));
        }
        const [rest, gql]: number[][] = [[], []];
        for (let k = 0; k < SAMPLES; k++) {
          // Which side goes first alternates too: neither always meets a warmer cache.
          const first = k % 2 === 0 ? 'rest' : 'graphql';
          const a = await request(server.base, pair[first](loaded, k));
          const b = await request(server.base, pair[first === 'rest' ? 'graphql' : 'rest'](loaded, k));
          rest.push(first === 'rest' ? a : b);
          gql.push(first === 'rest' ? b : a);
        }
        for (const times of [rest, gql]) times.sort((x, y) => x - y);
        const [r95, g95] = [percentile(rest, 95), percentile(gql, 95)];
        const ratio = g95 / r95;
        const verdict = loaded < 1_000_000 ? '' : `  target at 1M ≤ ${GRAPHQL_RATIO_TARGET}×  ${ratio <= GRAPHQL_RATIO_TARGET ? 'PASS' : 'FAIL'}`;
        const row =
          `${fmt(loaded).padStart(9)}  GraphQL ${kind}: REST p50 ${fmt(percentile(rest, 50), 1)} / p95 ${fmt(r95, 1)} ms, ` +
          `searchAcrossEntities p50 ${fmt(percentile(gql, 50), 1)} / p95 ${fmt(g95, 1)} ms, p95 ratio ${fmt(ratio, 2)}×${verdict}`;
        console.log(`  ${row}`);
        rows.push(row);
      }
      // After the queries: what the server holds with the catalog loaded and searched.
      const rss = rssMiB(server.pid);
      if (rss !== undefined) {
        const verdict = loaded < 1_000_000 ? '' : `  target at 1M < ${RSS_TARGET_MB} MiB  ${rss < RSS_TARGET_MB ? 'PASS' : 'FAIL'}`;
        const row = `${fmt(loaded).padStart(9)}  ${'server RSS'.padEnd(16)} ${fmt(rss)} MiB${verdict}`;
        console.log(`  ${row}`);
        rows.push(row);
      }
    }
    if (loaded > before) {
      console.log(`\nload: ${fmt(loaded - before)} datasets × 5 aspects (3 structured properties each) in batches of ${BATCH}, ${LOADERS} in flight: ${fmt(loadSeconds, 1)} s, ${fmt((loaded - before) / loadSeconds)} datasets/s`);
    }
    for (const row of rows) console.log(row);
    loadedAtEnd = loaded;
  } finally {
    await server.stop();
    // Closing checkpoints the write-ahead log into the database file and truncates it: what the catalog takes at rest.
    if (!database && loadedAtEnd > 0) {
      const bytes = statSync(path.join(dataDir, 'urnbase.db')).size;
      console.log(`\nat rest (urnbase stopped): urnbase.db ${fmt(bytes / 2 ** 20)} MiB, ${fmt(bytes / loadedAtEnd)} bytes per dataset`);
    }
    await database?.drop();
    if (!keptDir) await removeTempDir(dataDir);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
