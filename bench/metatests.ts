/**
 * Metadata-test benchmark, in two parts (run with: npx tsc -p . && node dist/bench/metatests.js):
 *
 * 1. `POST /gms/test?action=evaluate` (push=false) with 10 active tests on 1,000 datasets of 17
 *    aspects each: requests/s against the bare server's POST route (see harness.ts for how it is
 *    run and reported), target ≥ 0.35×.
 * 2. A catalog-wide run in-process (buildApp on a temp dir, as `urnbase tests run` does): load
 *    --entities datasets (default 100,000) through the batch API, 1,000 per request, then time
 *    MetadataTests.run with push=false and push=true; target ≥ 5,000 entities/s.
 *
 * Part 1's server runs with the default configuration, as `npm start` runs it: tests on change
 * evaluate (and push results for) the seeded datasets in the background, and the measurement
 * starts once that is over; the evaluations measured are push=false and change nothing, so set
 * off nothing. Part 2 runs in-process with background evaluation off, so that only the runs
 * asked for are timed.
 *
 * usage: node dist/bench/metatests.js [--entities <n>] [--only evaluate|catalog]
 *                                     [--duration <s>] [--rounds <n>] [--connections <n>]
 *                                     [--quick] [--profile <dir>] [--no-auth] [--costs]
 *   --entities <n>   datasets in the catalog-wide run (default 100000; 1000 with --quick)
 *   --only <part>    run one part: evaluate (HTTP, part 1) or catalog (in-process, part 2)
 *   --quick          1 s per run, 1 round, 1,000 entities: a smoke check
 *   --profile <dir>  run the part-1 urnbase server under node --cpu-prof, profiles to <dir>
 *   --profile-runs <dir>  CPU-profile each part-2 run (not the load), one .cpuprofile per run
 *   --workers <n>    worker threads of the part-2 runs (default: as urnbase serve, one per core up
 *                    to 4; 0 runs them on the main thread)
 *   --catalog-cache <dir> keep the loaded part-2 catalog in <dir> and start later runs from a copy
 *                    of it (skipping the load); the load figure is then the one measured when
 *                    the cache was made
 *   --costs          part 1: also run urnbase with each costly default off (see harness.ts)
 *   --no-auth        run the part-1 urnbase server with --auth false (by default auth is on and
 *                    every request sends the admin token; part 2 is in-process, without auth)
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { defaultWorkers } from '../src/config.js';
import {
  BARE_POST,
  DATASETS,
  HARNESS_OPTIONS,
  V2,
  aspectVersion,
  datasetUrns,
  encodedUrns,
  expectOk,
  fmt,
  jsonHeaders,
  makeTempDir,
  removeTempDir,
  runSuite,
  seedDatasets,
  waitUntilQuiet,
} from './harness.js';

const { values: flags } = parseArgs({
  options: { ...HARNESS_OPTIONS, ...suiteOptions() },
});
function suiteOptions() {
  return {
    entities: { type: 'string' },
    only: { type: 'string' },
    'profile-runs': { type: 'string' },
    'catalog-cache': { type: 'string' },
    workers: { type: 'string' },
  } as const;
}
const ENTITIES = flags.entities !== undefined ? Number(flags.entities) : flags.quick ? 1000 : 100_000;
if (!Number.isInteger(ENTITIES) || ENTITIES < 1) throw new Error(`--entities expects a positive integer, got ${JSON.stringify(flags.entities)}`);
if (flags.only !== undefined && !['evaluate', 'catalog'].includes(flags.only)) throw new Error('--only expects evaluate or catalog');
const WORKERS = flags.workers !== undefined ? Number(flags.workers) : defaultWorkers();
if (!Number.isInteger(WORKERS) || WORKERS < 0) throw new Error(`--workers expects a number from 0, got ${JSON.stringify(flags.workers)}`);

const LOAD_BATCH = 1000;
const RUN_TARGET = 5000; // entities/s
const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

// ---------------------------------------------------------------- the catalog around the datasets

const CLASSIFICATION = 'urn:li:glossaryNode:Classification';
const FINANCE_NODE = 'urn:li:glossaryNode:Finance';
const TERMS = ['urn:li:glossaryTerm:Classification.Sensitive', 'urn:li:glossaryTerm:Classification.Public', 'urn:li:glossaryTerm:Finance.Revenue'];
const DOMAIN = 'urn:li:domain:finance';
const CONTAINER = 'urn:li:container:bench-warehouse';
const RETENTION = 'urn:li:structuredProperty:bench.retentionDays';

/** [entity type, urn, aspect, value]: what the datasets refer to. */
const REFERENCES: Array<[string, string, string, unknown]> = [
  ['glossaryNode', CLASSIFICATION, 'glossaryNodeInfo', { name: 'Classification', definition: 'Data classification terms' }],
  ['glossaryNode', FINANCE_NODE, 'glossaryNodeInfo', { name: 'Finance', definition: 'Financial terms' }],
  ['glossaryTerm', TERMS[0], 'glossaryTermInfo', { name: 'Sensitive', definition: 'Sensitive data', termSource: 'INTERNAL', parentNode: CLASSIFICATION }],
  ['glossaryTerm', TERMS[1], 'glossaryTermInfo', { name: 'Public', definition: 'Public data', termSource: 'INTERNAL', parentNode: CLASSIFICATION }],
  ['glossaryTerm', TERMS[2], 'glossaryTermInfo', { name: 'Revenue', definition: 'Revenue figures', termSource: 'INTERNAL', parentNode: FINANCE_NODE }],
  ['domain', DOMAIN, 'domainProperties', { name: 'Finance', description: 'Finance data' }],
  ['container', CONTAINER, 'containerProperties', { name: 'warehouse', qualifiedName: 'hive.warehouse', description: 'The warehouse', env: 'PROD' }],
  [
    'structuredProperty',
    RETENTION,
    'propertyDefinition',
    {
      qualifiedName: 'bench.retentionDays',
      displayName: 'Retention (days)',
      valueType: 'urn:li:dataType:datahub.number',
      cardinality: 'SINGLE',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
    },
  ],
];

const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:ingestion' };
const FIELD_TYPES = ['StringType', 'NumberType', 'BooleanType', 'DateType'];

/**
 * The 17 aspects of dataset i (key included), varied so that every test passes on some datasets
 * and fails on others.
 */
function datasetAspects(i: number, name: string): Record<string, { value: unknown }> {
  const fields = Array.from({ length: 10 }, (_, j) => ({
    fieldPath: `col_${j}`,
    nullable: j > 0,
    ...(i % 4 === 0 && j === 3 ? {} : { description: `Column ${j} of ${name}` }),
    type: { type: { [`com.linkedin.schema.${FIELD_TYPES[j % 4]}`]: {} } },
    nativeDataType: ['varchar(64)', 'bigint', 'boolean', 'date'][j % 4],
    isPartOfKey: j === 0,
  }));
  const described = i % 5 !== 0;
  const aspects: Record<string, unknown> = {
    datasetKey: { platform: 'urn:li:dataPlatform:hive', name, origin: 'PROD' },
    datasetProperties: {
      name: i % 7 === 0 ? `Table${i}` : `table_${i}_v${(i % 3) + 1}`,
      qualifiedName: `hive.${name}`,
      ...(described ? { description: i % 11 === 0 ? `TODO describe ${name}` : `Facts about ${name}, refreshed daily` } : {}),
      customProperties: { owner_team: `team_${i % 13}`, refresh: 'daily' },
      created: { time: stamp.time },
      lastModified: { time: stamp.time + i },
    },
    editableDatasetProperties: {
      ...(i % 10 === 0 ? { description: `Curated description of ${name}` } : {}),
      created: stamp,
      lastModified: stamp,
    },
    schemaMetadata: {
      schemaName: name,
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      created: stamp,
      lastModified: stamp,
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      fields,
    },
    editableSchemaMetadata: {
      created: stamp,
      lastModified: stamp,
      editableSchemaFieldInfo: [
        { fieldPath: 'col_3', ...(i % 8 === 0 ? { description: 'Documented in the UI' } : {}), globalTags: { tags: [{ tag: 'urn:li:tag:reviewed' }] } },
      ],
    },
    globalTags: { tags: [...(i % 3 === 0 ? [{ tag: 'urn:li:tag:pii' }] : []), { tag: `urn:li:tag:tier${(i % 3) + 1}` }] },
    glossaryTerms: { terms: [{ urn: TERMS[(i >> 2) % 3] }], auditStamp: stamp },
    ownership: {
      owners: [
        { owner: `urn:li:corpuser:user${i % 97}`, type: 'DATAOWNER' },
        ...(i % 4 !== 1 ? [{ owner: `urn:li:corpGroup:group${i % 7}`, type: 'TECHNICAL_OWNER' }] : []),
      ],
      lastModified: stamp,
    },
    domains: { domains: i % 6 === 5 ? [] : [DOMAIN] },
    status: { removed: false },
    subTypes: { typeNames: [i % 10 === 9 ? 'View' : 'Table'] },
    container: { container: CONTAINER },
    institutionalMemory: {
      elements: [
        {
          url: i % 3 === 2 ? `https://github.com/org/repo/blob/main/${name}.md` : `https://wiki.example.com/data/${name}`,
          description: 'Runbook',
          createStamp: stamp,
        },
      ],
    },
    deprecation: { deprecated: i % 20 === 0, note: i % 20 === 0 ? 'Use the v2 table' : '', actor: stamp.actor },
    structuredProperties: { properties: [{ propertyUrn: RETENTION, values: [{ double: (i % 12) * 30 + 7 }] }] },
    browsePathsV2: { path: [{ id: CONTAINER, urn: CONTAINER }, { id: 'bench' }] },
    dataPlatformInstance: { platform: 'urn:li:dataPlatform:hive' },
  };
  return Object.fromEntries(Object.entries(aspects).map(([aspect, value]) => [aspect, { value }]));
}
const datasetName = (urn: string): string => /,([^,]+),PROD\)$/.exec(urn)![1];

// ---------------------------------------------------------------- the 10 tests

const leaf = (property: string, operator: string, value?: string | number | Array<string | number>) => ({
  property,
  operator,
  ...(value === undefined ? {} : Array.isArray(value) ? { values: value } : { value }),
});

const TESTS: Array<{ id: string; name: string; category: string; definition: object }> = [
  {
    id: 'bench-has-description',
    name: 'Datasets have a description',
    category: 'Documentation',
    definition: { on: { types: ['dataset'] }, rules: { or: [leaf('datasetProperties.description', 'exists'), leaf('editableDatasetProperties.description', 'exists')] } },
  },
  {
    id: 'bench-team-owned',
    name: 'Datasets are owned by a team',
    category: 'Ownership',
    definition: {
      on: { types: ['dataset'] },
      rules: [leaf('ownership.owners.owner', 'starts_with', 'urn:li:corpGroup:'), leaf('ownership.owners.type', 'contains_any', ['DATAOWNER', 'TECHNICAL_OWNER'])],
    },
  },
  {
    id: 'bench-pii-classified',
    name: 'PII datasets carry a classification term',
    category: 'Compliance',
    definition: {
      on: { types: ['dataset'], conditions: leaf('globalTags.tags.tag', 'contains_any', ['urn:li:tag:pii']) },
      rules: leaf('glossaryTerms.terms.urn.glossaryTermInfo.parentNode', 'equals', CLASSIFICATION),
    },
  },
  {
    id: 'bench-naming',
    name: 'Dataset names are snake_case and versioned',
    category: 'Naming',
    definition: { on: { types: ['dataset'] }, rules: leaf('datasetProperties.name', 'regex_match', '[a-z][a-z0-9_]*_v[0-9]+') },
  },
  {
    id: 'bench-retention',
    name: 'Retention is between a month and 400 days',
    category: 'Compliance',
    definition: {
      on: { types: ['dataset'] },
      rules: [leaf('structuredProperties.bench.retentionDays', 'greater_than', 30), leaf('structuredProperties.bench.retentionDays', 'less_than', 400)],
    },
  },
  {
    id: 'bench-schema-documented',
    name: 'Every schema field is described',
    category: 'Documentation',
    definition: { on: { types: ['dataset'] }, rules: leaf('schemaFields', 'schema_fields_have_descriptions') },
  },
  {
    id: 'bench-in-domain',
    name: 'Datasets belong to the finance domain',
    category: 'Governance',
    definition: { on: { types: ['dataset'] }, rules: leaf('domains.domains', 'equals', DOMAIN) },
  },
  {
    id: 'bench-live',
    name: 'Datasets are neither deprecated nor removed',
    category: 'Lifecycle',
    definition: { on: { types: ['dataset'] }, rules: { and: [leaf('deprecation.deprecated', 'is_false'), leaf('status.removed', 'is_false')] } },
  },
  {
    id: 'bench-runbook',
    name: 'Datasets link a wiki runbook',
    category: 'Documentation',
    definition: { on: { types: ['dataset'] }, rules: leaf('institutionalMemory.elements.url', 'starts_with', 'https://wiki.example.com/') },
  },
  {
    id: 'bench-table-hygiene',
    name: 'Tables sit in a container, are not too wide and have no TODO',
    category: 'Quality',
    definition: {
      on: { types: ['dataset'], conditions: leaf('subTypes.typeNames', 'contains_any', ['Table']) },
      rules: [
        leaf('container.container', 'exists'),
        leaf('schemaFields.length', 'less_than', 50),
        { not: leaf('datasetProperties.description', 'contains_str', 'TODO') },
      ],
    },
  },
];
const TEST_URNS = TESTS.map((t) => `urn:li:test:${t.id}`);

// ---------------------------------------------------------------- shared seeding

type Call = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<unknown>;

/** The referenced entities and the 10 tests, through the API. */
async function seedCatalog(call: Call): Promise<void> {
  for (const [type, urn, aspect, value] of REFERENCES) await call('POST', `${V2}/${type}/${encodeURIComponent(urn)}/${aspect}`, value);
  for (const t of TESTS) {
    await call('POST', `${V2}/test/${encodeURIComponent(`urn:li:test:${t.id}`)}/testInfo`, {
      name: t.name,
      category: t.category,
      definition: { type: 'JSON', json: JSON.stringify(t.definition) },
    });
  }
}

/** Every test must pass on some and fail on other datasets, or the workload is not what it claims. */
async function checkMix(call: Call, urns: readonly string[]): Promise<void> {
  const body = (await call('POST', '/gms/test?action=batchEvaluate', { urns, push: false })) as {
    value: { results: Record<string, { passing: Array<{ test: string }>; failing: Array<{ test: string }> }> };
  };
  const count = new Map(TEST_URNS.map((u) => [u, { passing: 0, failing: 0 }]));
  for (const r of Object.values(body.value.results)) {
    for (const p of r.passing) count.get(p.test)!.passing++;
    for (const f of r.failing) count.get(f.test)!.failing++;
  }
  const onesided = [...count].filter(([, c]) => c.passing === 0 || c.failing === 0);
  if (count.size !== TESTS.length || onesided.length > 0) {
    throw new Error(`tests that do not both pass and fail on ${urns.length} datasets: ${JSON.stringify(onesided)}`);
  }
}

// ---------------------------------------------------------------- part 1: evaluate over HTTP

let nextEvaluated = 0;
/** Per server: the datasets' testResults versions once seeding's background evaluation was over. */
const resultsBefore = new Map<string, number>();
async function testResultVersions(base: string): Promise<number> {
  let total = 0;
  for (const urn of encodedUrns) total += await aspectVersion(base, urn, 'testResults');
  return total;
}
const evaluateBody = (): string => JSON.stringify({ urn: datasetUrns[nextEvaluated++ % DATASETS], push: false });

async function evaluatePart(): Promise<boolean> {
  return runSuite({
    title: 'urnbase metadata-test benchmark, part 1: POST /gms/test?action=evaluate (push=false)',
    seeded: `${DATASETS} seeded datasets × 17 aspects (and the testResults tests on change pushed), ${TESTS.length} active tests`,
    options: suiteOptions(),
    scenarios: [
      BARE_POST,
      {
        name: 'evaluate POST',
        server: 'urnbase',
        request: () => ({ method: 'POST', path: '/gms/test?action=evaluate', headers: jsonHeaders(), body: evaluateBody() }),
      },
    ],
    async seed(base) {
      const call: Call = async (method, path, body) =>
        expectOk(
          await fetch(`${base}${path}`, { method, headers: jsonHeaders(), body: body === undefined ? undefined : JSON.stringify(body) }),
          `${method} ${path}`,
        );
      await seedCatalog(call);
      await seedDatasets(base, (i) => datasetAspects(i, datasetName(datasetUrns[i])));
      await checkMix(call, datasetUrns.slice(0, 120));
      const one = (await call('POST', '/gms/test?action=evaluate', { urn: datasetUrns[0], push: false })) as {
        value: { passing: unknown[]; failing: unknown[] };
      };
      if (one.value.passing.length + one.value.failing.length !== TESTS.length) {
        throw new Error(`expected ${TESTS.length} results for ${datasetUrns[0]}: ${JSON.stringify(one)}`);
      }

      // Tests on change push the seeded datasets' results in the background: what the measured
      // (push=false) evaluations write is counted from the versions stored once that is over.
      await waitUntilQuiet(base);
      resultsBefore.set(base, await testResultVersions(base));
    },
    writes: 'push=false evaluations',
    /** push=false must write nothing: no dataset's testResults may have a new version since seeding. */
    async writtenVersions(base) {
      return (await testResultVersions(base)) - resultsBefore.get(base)!;
    },
    ratios: [{ label: 'evaluate / bare POST', scenario: 'evaluate POST', baseline: 'bare POST', target: 0.35 }],
  });
}

// ---------------------------------------------------------------- part 2: the catalog-wide run

const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

const CACHE_MARKER = 'bench-catalog.json';
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,catalog.table_${String(i).padStart(7, '0')},PROD)`;

/** The load line of a cached catalog of ENTITIES datasets, or undefined when there is none. */
async function readCache(dir: string): Promise<string | undefined> {
  try {
    const marker = JSON.parse(await readFile(path.join(dir, CACHE_MARKER), 'utf8')) as { entities: number; load: string };
    return marker.entities === ENTITIES ? marker.load : undefined;
  } catch {
    return undefined;
  }
}

async function openCatalog(dataDir: string) {
  const { app, services } = await buildApp({
    dataDir,
    logLevel: 'silent',
    bodyLimit: 16 * 1024 * 1024,
    testsInterval: 0,
    testsOnChange: false,
    testsWorkers: WORKERS,
  });
  const call: Call = async (method, url, body) => {
    const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: HTTP ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as unknown;
  };
  return { app, services, call };
}

/** Seeds the references and tests, then loads the datasets; returns the load line. */
async function loadCatalog(call: Call): Promise<string> {
  await seedCatalog(call);
  // Bodies are built outside the timer; the time is the server's (parse, validate, store).
  let loadSeconds = 0;
  let aspectsLoaded = 0;
  for (let start = 0; start < ENTITIES; start += LOAD_BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(ENTITIES, start + LOAD_BATCH); i++) {
      const urn = urnOf(i);
      const aspects = datasetAspects(i, datasetName(urn));
      aspectsLoaded += Object.keys(aspects).length;
      batch.push({ urn, aspects });
    }
    const body = JSON.stringify(batch);
    const t0 = process.hrtime.bigint();
    await call('POST', `${V2}/dataset?async=false`, body);
    loadSeconds += secondsSince(t0);
  }
  return (
    `load: ${fmt(ENTITIES)} datasets (${fmt(aspectsLoaded)} aspects) in batches of ${fmt(LOAD_BATCH)}: ` +
    `${fmt(loadSeconds, 1)} s, ${fmt(ENTITIES / loadSeconds)} entities/s, ${fmt(aspectsLoaded / loadSeconds)} aspects/s`
  );
}

async function catalogPart(): Promise<void> {
  console.log(`urnbase metadata-test benchmark, part 2: catalog-wide run over ${fmt(ENTITIES)} datasets, in-process`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ` +
      `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${TESTS.length} active tests, background evaluation off, ` +
      `${WORKERS === 0 ? 'runs on the main thread' : `runs on ${WORKERS} worker thread(s)`}\n`,
  );
  const dataDir = await makeTempDir('urnbase-metatests-');
  const cache = flags['catalog-cache'] === undefined ? undefined : path.resolve(flags['catalog-cache']);
  const cachedLoad = cache ? await readCache(cache) : undefined;
  if (cache && cachedLoad) {
    await copyFile(path.join(cache, 'urnbase.db'), path.join(dataDir, 'urnbase.db'));
    console.log(`${cachedLoad}  [measured when the cache ${cache} was made]`);
  } else if (cache) {
    const loaded = await openCatalog(cache);
    const line = await loadCatalog(loaded.call);
    await loaded.app.close();
    await writeFile(path.join(cache, CACHE_MARKER), JSON.stringify({ entities: ENTITIES, load: line }));
    await copyFile(path.join(cache, 'urnbase.db'), path.join(dataDir, 'urnbase.db'));
    console.log(line);
  }
  const { app, services, call } = await openCatalog(dataDir);
  try {
    if (!cache) console.log(await loadCatalog(call));
    await checkMix(call, Array.from({ length: Math.min(ENTITIES, 120) }, (_, i) => urnOf(i)));

    const runs: Array<{ label: string; push: boolean; target: boolean }> = [
      { label: 'run push=false', push: false, target: true },
      { label: 'run push=true (first: writes every testResults)', push: true, target: true },
      { label: 'run push=true again (results unchanged: no writes)', push: true, target: false },
    ];
    const lines: string[] = [];
    const profiler = flags['profile-runs'] === undefined ? undefined : new Session();
    profiler?.connect();
    for (const [n, run] of runs.entries()) {
      if (profiler) {
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      let profiled: string | undefined;
      const t0 = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const summary = await services.tests.run({ push: run.push, actor: SYSTEM_ACTOR });
      const seconds = secondsSince(t0);
      const cpu = process.cpuUsage(cpu0);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = path.resolve(flags['profile-runs']!, `run-${n + 1}-push-${run.push}.cpuprofile`);
        await writeFile(file, JSON.stringify(profile));
        profiled = file;
      }
      if (summary.entities !== ENTITIES) throw new Error(`${run.label} evaluated ${summary.entities} entities, expected ${ENTITIES}`);
      const rate = ENTITIES / seconds;
      const verdict = run.target ? `  target ≥ ${fmt(RUN_TARGET)}/s  ${rate >= RUN_TARGET ? 'PASS' : 'FAIL'}` : '';
      console.log(`${run.label}: ${fmt(seconds, 1)} s, ${fmt(rate)} entities/s${verdict}  (CPU ${fmt(cpuSeconds, 1)} s: ${fmt(cpuSeconds / seconds, 2)} cores busy)`);
      lines.push(`${run.label.padEnd(52)} ${fmt(rate).padStart(7)} entities/s${verdict}`);
      if (profiled) console.log(`  CPU profile of this run: ${profiled}`);
      if (run === runs[0]) {
        console.log('  passing/failing per test:');
        for (const t of summary.tests) console.log(`    ${t.urn.padEnd(36)} ${fmt(t.passing).padStart(7)} / ${fmt(t.failing).padStart(7)}`);
      }
    }

    // push=true must have stored results: one version each, unchanged by the second run.
    for (const i of [0, Math.floor(ENTITIES / 2), ENTITIES - 1]) {
      const res = (await call('GET', `${V2}/dataset/${encodeURIComponent(urnOf(i))}/testResults?systemMetadata=true`)) as {
        value: { passing: unknown[]; failing: unknown[] };
        systemMetadata: { version: string };
      };
      const n = res.value.passing.length + res.value.failing.length;
      if (n < TESTS.length - 2 || res.systemMetadata.version !== '1') {
        throw new Error(`unexpected testResults on ${urnOf(i)}: ${n} results, version ${res.systemMetadata.version}`);
      }
    }
    profiler?.disconnect();
    console.log(`testResults verified on 3 datasets: stored once, not rewritten by the unchanged run\n`);
    for (const line of lines) console.log(line);
  } finally {
    await app.close();
    await removeTempDir(dataDir);
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  if (flags.only !== 'catalog') {
    if (!(await evaluatePart())) return;
    console.log();
  }
  if (flags.only !== 'evaluate') await catalogPart();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
