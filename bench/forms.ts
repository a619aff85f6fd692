/**
 * Forms benchmark (issue 38), in process (buildApp on a fresh store, as metatests.ts part 2):
 *
 * 1. Load --datasets datasets (default 100,000; half PROD, half DEV, all on hive) through the v2
 *    batch API, 1,000 per request, three structured properties and two forms of three prompts.
 * 2. Time `services.forms.assignByFilter` end to end (until every matching dataset's `forms`
 *    aspect holds the form): one filter matching every dataset (platform = hive), one matching
 *    half (origin = PROD). Target: 100,000 assets in < 30 s.
 * 3. Answer prompts on 30% of the datasets (through the batch API: each write recomputes the
 *    asset's forms), then time `services.forms.completion(form)`, median and p95 of repeated
 *    calls. Target: < 50 ms.
 * 4. Check: the counts equal what was written, and sampled datasets read back hold the forms.
 *
 * usage: node dist/bench/forms.js [--datasets <n>] [--postgres] [--calls <n>] [--keep]
 *   --postgres     a fresh PostgreSQL database on URNBASE_BENCH_POSTGRES (default
 *                  postgres://postgres@127.0.0.1:5432), dropped afterwards
 *   --calls <n>    completion calls timed per form (default 50, after 5 of warm-up)
 *   --profile <dir>  a CPU profile of each timed part (assignments, completion calls) in <dir>
 * Profile with: node --cpu-prof --cpu-prof-dir <dir> dist/bench/forms.js …
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { serverCpu, serverSeconds } from './cpu.js';
import { benchDatabase, fmt, loadAverage, makeTempDir, mib, percentile, removeTempDir, V2 } from './harness.js';

const { values: flags } = parseArgs({
  options: { datasets: { type: 'string', default: '100000' }, postgres: { type: 'boolean', default: false }, calls: { type: 'string', default: '50' }, profile: { type: 'string' } },
});
const DATASETS = Number(flags.datasets);
const CALLS = Number(flags.calls);
if (!Number.isInteger(DATASETS) || DATASETS < 10) throw new Error(`--datasets expects an integer ≥ 10, got ${JSON.stringify(flags.datasets)}`);
if (!Number.isInteger(CALLS) || CALLS < 1) throw new Error(`--calls expects a positive integer, got ${JSON.stringify(flags.calls)}`);

const LOAD_BATCH = 1000;
const ASSIGN_TARGET_S = 30;
const COMPLETION_TARGET_MS = 50;
const CONTEXT = { actor: 'urn:li:corpuser:datahub', source: 'bench', admin: true };
const PROPERTIES = ['bench.forms.retention', 'bench.forms.tier', 'bench.forms.steward'].map((q) => `urn:li:structuredProperty:${q}`);
const [RETENTION, TIER, STEWARD] = PROPERTIES;
const FORM_ALL = 'urn:li:form:bench-all';
const FORM_HALF = 'urn:li:form:bench-half';
const ALL_FILTER = { or: [{ and: [{ field: '_entityType', value: 'DATASET', condition: 'EQUAL' }, { field: 'platform', value: 'urn:li:dataPlatform:hive', condition: 'EQUAL' }] }] };
const HALF_FILTER = { or: [{ and: [{ field: '_entityType', value: 'DATASET', condition: 'EQUAL' }, { field: 'platform', value: 'urn:li:dataPlatform:hive', condition: 'EQUAL' }, { field: 'origin', value: 'PROD', condition: 'EQUAL' }] }] };

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.forms.table_${String(i).padStart(7, '0')},${i % 2 === 0 ? 'PROD' : 'DEV'})`;
/** Dataset i answers: 30% (i % 10 < 3) the two required prompts, 10% (i % 10 === 0) the optional one too. */
const answersRequired = (i: number) => i % 10 < 3;
const answersOptional = (i: number) => i % 10 === 0;

const secondsSince = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const load = loadAverage;


/** Runs work under the V8 profiler when --profile names a directory, writing <dir>/<name>.cpuprofile. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (flags.profile === undefined) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(flags.profile, { recursive: true });
    await writeFile(path.join(flags.profile, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

function formInfo(name: string, prefix: string) {
  return {
    name,
    type: 'COMPLETION',
    prompts: [
      { id: `${prefix}-retention`, title: 'Retention', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: RETENTION }, required: true },
      { id: `${prefix}-tier`, title: 'Tier', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: TIER }, required: true },
      { id: `${prefix}-steward`, title: 'Steward', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: STEWARD }, required: false },
    ],
  };
}

async function main(): Promise<void> {
  console.log(`urnbase forms benchmark: ${fmt(DATASETS)} datasets, in process`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${load()}`);
  const dataDir = await makeTempDir('urnbase-forms-');
  const database = flags.postgres ? await benchDatabase() : undefined;
  console.log(`store: ${database ? 'PostgreSQL' : 'SQLite'}\n`);
  const { app, services } = await buildApp({
    dataDir,
    logLevel: 'silent',
    bodyLimit: 16 * 1024 * 1024,
    testsInterval: 0,
    testsOnChange: false,
    testsWorkers: 0,
    ...(database ? { databaseUrl: database.url } : {}),
  });
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> => {
    const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: HTTP ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.body.length > 0 ? (res.json() as unknown) : undefined;
  };
  let failed = false;
  const check = (ok: boolean, what: string) => {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failed = true;
  };
  try {
    // ------------------------------------------------------------ the catalog
    for (const [urn, valueType] of [[RETENTION, 'number'], [TIER, 'string'], [STEWARD, 'string']] as const) {
      await call('POST', `${V2}/structuredProperty/${encodeURIComponent(urn)}/propertyDefinition`, {
        qualifiedName: urn.slice('urn:li:structuredProperty:'.length),
        valueType: `urn:li:dataType:datahub.${valueType}`,
        cardinality: 'SINGLE',
        entityTypes: ['urn:li:entityType:datahub.dataset'],
      });
    }
    await call('POST', `${V2}/form/${encodeURIComponent(FORM_ALL)}/formInfo`, formInfo('Every hive table', 'all'));
    await call('POST', `${V2}/form/${encodeURIComponent(FORM_HALF)}/formInfo`, formInfo('Production hive tables', 'half'));
    let loadSeconds = 0;
    for (let start = 0; start < DATASETS; start += LOAD_BATCH) {
      const batch = [];
      for (let i = start; i < Math.min(DATASETS, start + LOAD_BATCH); i++) {
        batch.push({ urn: urnOf(i), aspects: { datasetProperties: { value: { name: `table_${i}`, description: `Bench table ${i}` } } } });
      }
      const body = JSON.stringify(batch);
      const t0 = process.hrtime.bigint();
      await call('POST', `${V2}/dataset?async=false`, body);
      loadSeconds += secondsSince(t0);
    }
    console.log(`load: ${fmt(DATASETS)} datasets in batches of ${fmt(LOAD_BATCH)}: ${fmt(loadSeconds, 1)} s, ${fmt(DATASETS / loadSeconds)} datasets/s; rss ${mib(process.memoryUsage().rss)}\n`);

    // ------------------------------------------------------------ assignment by filter
    const half = Math.ceil(DATASETS / 2);
    const assignments: [string, unknown, number, string][] = [
      [FORM_ALL, ALL_FILTER, DATASETS, 'platform = hive (all)'],
      [FORM_HALF, HALF_FILTER, half, 'platform = hive and origin = PROD (half)'],
    ];
    for (const [form, filter, expected, label] of assignments) {
      const server0 = await serverCpu(database?.url);
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const { added, removed } = await profiled(`assign-${form.slice(12)}`, () => services.forms.assignByFilter(form, filter, CONTEXT));
      const seconds = secondsSince(t0);
      const cpu = process.cpuUsage(cpu0);
      const server = database ? `, PostgreSQL's ${fmt(serverSeconds(server0, await serverCpu(database.url)), 1)} s` : '';
      const verdict = expected === DATASETS && DATASETS >= 100_000 ? `  target < ${ASSIGN_TARGET_S} s ${seconds < ASSIGN_TARGET_S ? 'PASS' : 'FAIL'}` : '';
      console.log(
        `assignByFilter ${label}: ${fmt(added)} assets in ${fmt(seconds, 2)} s, ${fmt(added / seconds)} assets/s, ` +
          `CPU ${fmt((cpu.user + cpu.system) / 1e6, 1)} s (urnbase's${server}); rss ${mib(process.memoryUsage().rss)}, load ${load()}${verdict}`,
      );
      check(added === expected && removed === 0, `added ${fmt(added)} (expected ${fmt(expected)}), removed ${removed}`);
      const again = await services.forms.reconcileForm(form, CONTEXT);
      check(again.added === 0 && again.removed === 0, `reconciled again: nothing to do (added ${again.added}, removed ${again.removed})`);
    }

    // ------------------------------------------------------------ answers on 30%
    const t1 = process.hrtime.bigint();
    let answered = 0;
    for (let start = 0; start < DATASETS; start += LOAD_BATCH) {
      const batch = [];
      for (let i = start; i < Math.min(DATASETS, start + LOAD_BATCH); i++) {
        if (!answersRequired(i)) continue;
        const properties = [
          { propertyUrn: RETENTION, values: [{ double: 30 + (i % 300) }] },
          { propertyUrn: TIER, values: [{ string: `tier-${i % 3}` }] },
          ...(answersOptional(i) ? [{ propertyUrn: STEWARD, values: [{ string: `steward-${i % 7}` }] }] : []),
        ];
        batch.push({ urn: urnOf(i), aspects: { structuredProperties: { value: { properties } } } });
      }
      if (batch.length === 0) continue;
      await call('POST', `${V2}/dataset?async=false`, JSON.stringify(batch));
      answered += batch.length;
    }
    const answerSeconds = secondsSince(t1);
    console.log(`\nanswers: ${fmt(answered)} datasets answer the required prompts (a tenth of all the optional one too), each write recomputing its forms: ${fmt(answerSeconds, 1)} s, ${fmt(answered / answerSeconds)} writes/s`);

    // ------------------------------------------------------------ completion counts
    const count = (n: number, pred: (i: number) => boolean) => {
      let c = 0;
      for (let i = 0; i < n; i++) if (pred(i)) c++;
      return c;
    };
    for (const [form, , assigned] of assignments) {
      const inForm = (i: number) => form === FORM_ALL || i % 2 === 0;
      const completed = count(DATASETS, (i) => inForm(i) && answersRequired(i));
      const optional = count(DATASETS, (i) => inForm(i) && answersOptional(i));
      for (let k = 0; k < 5; k++) await services.forms.completion(form);
      const times: number[] = [];
      let last: Awaited<ReturnType<typeof services.forms.completion>> | undefined;
      await profiled(`completion-${form.slice(12)}`, async () => {
        for (let k = 0; k < CALLS; k++) {
          const t0 = process.hrtime.bigint();
          last = await services.forms.completion(form);
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      });
      times.sort((a, b) => a - b);
      const [p50, p95] = [percentile(times, 50), percentile(times, 95)];
      console.log(
        `\ncompletion(${form}), ${CALLS} calls: median ${fmt(p50, 2)} ms, p95 ${fmt(p95, 2)} ms, max ${fmt(times[times.length - 1], 2)} ms` +
          `  target < ${COMPLETION_TARGET_MS} ms ${p95 < COMPLETION_TARGET_MS ? 'PASS' : 'FAIL'} (p95)`,
      );
      const c = last!;
      check(c.assigned === assigned && c.completed === completed && c.incomplete === assigned - completed && c.verified === 0, `assigned ${fmt(c.assigned)}, completed ${fmt(c.completed)}, incomplete ${fmt(c.incomplete)} (expected ${fmt(assigned)}, ${fmt(completed)}, ${fmt(assigned - completed)})`);
      const expectedPrompts = [completed, completed, optional];
      c.prompts.forEach((p, k) => check(p.completed === expectedPrompts[k] && p.incomplete === assigned - expectedPrompts[k], `prompt ${p.id}: completed ${fmt(p.completed)} (expected ${fmt(expectedPrompts[k])}), incomplete ${fmt(p.incomplete)}`));
    }

    // ------------------------------------------------------------ read back
    // Spread over the catalog, within it however small (--datasets 100 once sampled past its end).
    const sample = [...new Set(Array.from({ length: 200 }, (_, k) => (Math.floor((k * DATASETS) / 200) + (k % 10)) % DATASETS))];
    const read = await services.reader.getEntities(sample.map(urnOf), new Set(['forms']));
    let wrong = 0;
    for (const i of sample) {
      const forms = read.get(urnOf(i))?.aspects.get('forms')?.value as { incompleteForms?: { urn: string }[]; completedForms?: { urn: string }[] } | undefined;
      const where = (form: string) => (forms?.completedForms?.some((f) => f.urn === form) ? 'completed' : forms?.incompleteForms?.some((f) => f.urn === form) ? 'incomplete' : 'none');
      const want = answersRequired(i) ? 'completed' : 'incomplete';
      if (where(FORM_ALL) !== want) wrong++;
      if (where(FORM_HALF) !== (i % 2 === 0 ? want : 'none')) wrong++;
    }
    check(wrong === 0, `${sample.length} sampled datasets read back: ${wrong} forms in the wrong state`);
    const usage = process.resourceUsage();
    console.log(`\nrss now ${mib(process.memoryUsage().rss)}, peak ${mib(usage.maxRSS * 1024)}; load average ${load()}`);
  } finally {
    await app.close();
    await database?.drop();
    await removeTempDir(dataDir);
  }
  if (failed) {
    console.log('\nFAILED: a check above did not hold');
    process.exitCode = 1;
  }
}

await main();
