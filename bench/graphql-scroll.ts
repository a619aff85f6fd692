/**
 * GraphQL's scroll against REST's: the SDK's get_urns_by_filter asks scrollAcrossEntities for pages
 * of 5,000 URNs; issue 36 holds such a page to at most 1.5× the cost of the v3 scroll of the same
 * URNs (`POST /openapi/v3/entity/scroll`, URNs only). REST pages hold at most 1,000 (MAX_COUNT), so
 * the v3 side reads the same 5,000 URNs in five requests; GraphQL's pages of 1,000 are measured too,
 * request for request the same page as v3's. Costs compare as URNs a second.
 *
 * urnbase runs as a child process (authentication on) on a fresh store of --datasets datasets.
 * Both sides' requests walk the same pages (their scroll ids taken beforehand, each answer checked
 * to hold the page's 5,000 URNs), replayed by wrk (one thread, --connections) in alternating rounds
 * of --duration seconds; a GraphQL error answers 200, so each side's answers are checked once
 * before the rounds, and wrk counts only answers >= 400 during them (handing 500 KB bodies to
 * its Lua, as wrk.lua's status count does, slowed the generator and so the GraphQL side most). Reported: each side's median rate, p50 / p95 and the server's CPU time per URN
 * (from /proc: what a page costs, whatever the load generator took of the machine) over the
 * rounds, and the cost ratios, by CPU per URN (the target's measure) and by rate.
 *
 * usage: node dist/bench/graphql-scroll.js [--datasets 20000] [--rounds 5] [--duration 10] [--connections 2] [--postgres]
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { authHeaders, benchDatabase, expectOk, fmt, jsonHeaders, makeTempDir, median, removeTempDir, startUrnbase, V2 } from './harness.js';
import { cpuTime } from './cpu.js';
import { requireWrk, runWrk, writeRequests, type HttpRequest } from './wrk.js';

const { values: flags } = parseArgs({
  options: {
    datasets: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '2' },
    postgres: { type: 'boolean', default: false },
  },
});
const [DATASETS, ROUNDS, DURATION, CONNECTIONS] = [flags.datasets, flags.rounds, flags.duration, flags.connections].map(Number);
const SDK_PAGE = 5000;
const REST_PAGE = 1000;
const TARGET = 1.5;

/** The SDK's get_urns_by_filter, as its client sends it (our own text): URNs and extra properties, soft-deleted ones left out. */
const URNS_BY_FILTER = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $batchSize: Int!, $scrollId: String) {
  scrollAcrossEntities(input: { query: $query, count: $batchSize, scrollId: $scrollId, types: $types, orFilters: $orFilters,
      searchFlags: { skipHighlighting: true, skipAggregates: true } }) {
    nextScrollId
    searchResults { entity { urn } extraProperties { name value } }
  }
}`;
const NOT_SOFT_DELETED = [{ and: [{ field: 'removed', values: ['true'], condition: 'EQUAL', negated: true }] }];

const graphqlRequest = (page: number, scrollId: string | null): HttpRequest => ({
  method: 'POST',
  path: '/api/graphql',
  headers: jsonHeaders(),
  body: JSON.stringify({ query: URNS_BY_FILTER, variables: { types: ['DATASET'], query: '*', orFilters: NOT_SOFT_DELETED, batchSize: page, scrollId } }),
});
const v3Request = (page: number, scrollId: string | null): HttpRequest => ({
  method: 'POST',
  path: `/openapi/v3/entity/scroll?count=${page}${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`,
  headers: jsonHeaders(),
  body: JSON.stringify({ entities: ['dataset'] }),
});

/** Sends one request and answers its JSON, refusing a GraphQL answer with errors. */
async function send(base: string, request: HttpRequest): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const body = (await expectOk(res, `${request.method} ${request.path}`)) as Record<string, unknown>;
  if (body.errors) throw new Error(`GraphQL refused: ${JSON.stringify(body).slice(0, 500)}`);
  return body;
}

/** Every page of one side, by walking it: the requests wrk replays, each checked to answer its page of URNs. */
async function pages(base: string, side: 'graphql' | 'v3', size: number): Promise<HttpRequest[]> {
  const requests: HttpRequest[] = [];
  let scrollId: string | null = null;
  let seen = 0;
  do {
    const request = side === 'graphql' ? graphqlRequest(size, scrollId) : v3Request(size, scrollId);
    const body = await send(base, request);
    const page = side === 'graphql' ? (body.data as { scrollAcrossEntities: { nextScrollId: string | null; searchResults: unknown[] } }).scrollAcrossEntities : undefined;
    const urns = page ? page.searchResults.length : (body.entities as unknown[]).length;
    if (urns !== Math.min(size, DATASETS - seen)) throw new Error(`${side}: page ${requests.length + 1} held ${urns} URNs`);
    seen += urns;
    requests.push(request);
    scrollId = page ? page.nextScrollId : ((body.scrollId as string | null) ?? null);
  } while (scrollId && seen < DATASETS);
  if (seen !== DATASETS) throw new Error(`${side}: ${seen} URNs in all, not ${DATASETS}`);
  // The last, shorter page would make one side's cycle cheaper: full pages only.
  return requests.filter((_, i) => (i + 1) * size <= DATASETS);
}

async function main(): Promise<void> {
  const wrk = requireWrk();
  if (![DATASETS, ROUNDS, DURATION, CONNECTIONS].every((n) => Number.isInteger(n) && n > 0) || DATASETS < SDK_PAGE) {
    throw new Error(`--datasets (at least ${SDK_PAGE}), --rounds, --duration and --connections expect positive integers`);
  }
  const dataDir = await makeTempDir('urnbase-graphql-scroll-');
  const database = flags.postgres ? await benchDatabase() : undefined;
  const server = await startUrnbase(dataDir, ['--tests-on-change', 'false', '--tests-interval', '0', ...(database ? ['--database-url', database.url] : [])]);
  const work = await makeTempDir('urnbase-graphql-scroll-wrk-');
  try {
    for (let loaded = 0; loaded < DATASETS; loaded += 1000) {
      const body = Array.from({ length: Math.min(1000, DATASETS - loaded) }, (_, j) => {
        const i = loaded + j;
        return { urn: `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_${i},PROD)`, aspects: { datasetProperties: { value: { name: `table_${i}`, description: `table ${i}` } } } };
      });
      await expectOk(await fetch(`${server.base}${V2}/dataset?async=false`, { method: 'POST', headers: jsonHeaders(), body: JSON.stringify(body) }), 'loading');
    }
    const sides = [
      { name: `v3 scroll, ${fmt(REST_PAGE)} a page`, page: REST_PAGE, file: path.join(work, 'v3'), requests: await pages(server.base, 'v3', REST_PAGE) },
      { name: `GraphQL, ${fmt(SDK_PAGE)} a page`, page: SDK_PAGE, file: path.join(work, 'graphql'), requests: await pages(server.base, 'graphql', SDK_PAGE) },
      { name: `GraphQL, ${fmt(REST_PAGE)} a page`, page: REST_PAGE, file: path.join(work, 'graphql-1000'), requests: await pages(server.base, 'graphql', REST_PAGE) },
    ];
    for (const side of sides) await writeRequests(side.file, server.base, side.requests);
    console.log(`urnbase GraphQL scroll against v3 scroll, ${database ? 'PostgreSQL' : 'SQLite'}: ${fmt(DATASETS)} datasets, URNs only`);
    console.log(`${wrk}, 1 thread, ${CONNECTIONS} connections, ${DURATION} s a run; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    const figures = new Map(sides.map((s) => [s.name, { urns: [] as number[], cpu: [] as number[], p50: [] as number[], p95: [] as number[] }]));
    const cpu = async () => {
      const { user, system } = await cpuTime(server.pid);
      return user + system;
    };
    for (let round = 0; round <= ROUNDS; round++) {
      // Which side goes first alternates: neither always meets the other's leftovers.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = await cpu();
        const result = await runWrk(server.base, side.file, DURATION, CONNECTIONS, false);
        /** The server's CPU time per URN answered, in µs. */
        const perUrn = ((await cpu()) - before) / (result.requests * side.page) * 1e6;
        if (result.other > 0 || result.errors.timeout > 0) throw new Error(`${side.name}: ${result.other} answers not 2xx (${result.otherStatuses}), ${result.errors.timeout} timeouts`);
        console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''}, ${side.name}: ${fmt(result.rate * side.page)} URNs/s, ${fmt(perUrn, 2)} µs CPU a URN, p50 ${fmt(result.latencyMs.p50, 1)} ms, p95 ${fmt(result.latencyMs.p95, 1)} ms`);
        if (round === 0) continue;
        const f = figures.get(side.name)!;
        f.urns.push(result.rate * side.page);
        f.cpu.push(perUrn);
        f.p50.push(result.latencyMs.p50);
        f.p95.push(result.latencyMs.p95);
      }
    }
    console.log('\nmedians over the rounds:');
    for (const [name, f] of figures) console.log(`  ${name.padEnd(26)} ${fmt(median(f.urns))} URNs/s, ${fmt(median(f.cpu), 2)} µs CPU a URN, a page p50 ${fmt(median(f.p50), 1)} ms, p95 ${fmt(median(f.p95), 1)} ms`);
    const [v3, sdk, same] = sides.map((s) => figures.get(s.name)!);
    for (const [what, graphql] of [[`GraphQL's pages of ${fmt(SDK_PAGE)}`, sdk], [`GraphQL's pages of ${fmt(REST_PAGE)}`, same]] as const) {
      const ratio = median(graphql.cpu) / median(v3.cpu);
      const byRate = median(v3.urns) / median(graphql.urns);
      console.log(`cost of a URN, ${what} against v3's: ${fmt(ratio, 2)}× the CPU (target ≤ ${TARGET}×)  ${ratio <= TARGET ? 'PASS' : 'FAIL'}; by rate ${fmt(byRate, 2)}×`);
    }
  } finally {
    await server.stop();
    await database?.drop();
    await removeTempDir(dataDir);
    await removeTempDir(work);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
