/**
 * Where a write's time goes, without HTTP: CPU time per write of the write path alone (ingest,
 * then the answer's read-time filters, as the POST route does; the process's CPU, so the WAL
 * checkpoint thread's share is in it), and of the SQLite transaction within it. In process, 16 writes at a time (as wrk's 16 connections), to 1,000 seeded datasets,
 * each write a new value, after a warm-up.
 *
 * The HTTP benchmarks (load.ts, structured.ts) give a request's whole cost; this one splits it:
 * what is left for HTTP and Fastify is their figure minus this one. `--aspect status` writes an
 * aspect that is not in the full-text document, so the difference shows FTS5's share;
 * `--aspect structuredProperties` writes three typed values validated against their definitions.
 *
 * `--no-follow` drops the commit followers (forms' follow(), which checks changed assets against
 * dynamic form assignments), to measure what they cost a write in a catalog without forms.
 *
 * usage: node dist/bench/write-path.js [--writes <n>] [--rounds <n>] [--aspect globalTags|status|structuredProperties] [--no-follow]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import type { CommitBatch } from '../src/store/store.js';
import { datasetUrns, fmt, makeTempDir, median, removeTempDir, seedTags } from './harness.js';
import { assignments, DEFINITIONS, property } from './structured-values.js';

const { values: flags } = parseArgs({
  options: { writes: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, aspect: { type: 'string', default: 'globalTags' }, 'no-follow': { type: 'boolean', default: false } },
});
const WRITES = Number(flags.writes);
// Writes cycle over the datasets in order, so write n visits dataset n mod 1,000: see VALUES.status.
const ROUNDS = Number(flags.rounds);
const CONCURRENCY = 16;
const VALUES: Record<string, (n: number) => unknown> = {
  // Tags are keywords of the full-text document: each write rewrites the entity's document.
  globalTags: (n) => seedTags(n),
  // status is not text: its index row changes (removed flips at each visit), the document does not.
  status: (n) => ({ removed: Math.floor(n / datasetUrns.length) % 2 === 0 }),
  // Three typed values, validated against their definitions (as bench/structured.ts's POST).
  structuredProperties: (n) => ({ properties: assignments(n) }),
};
const value = VALUES[flags.aspect];
if (!value || !Number.isInteger(WRITES) || WRITES < CONCURRENCY || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error('--aspect globalTags|status|structuredProperties, --writes >= 16, --rounds >= 1');
}

/** The CPU time (user + system, µs) of this process so far. */
const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const dataDir = await makeTempDir('urnbase-write-path-');
const { app, services } = await buildApp({ dataDir, logLevel: 'warn', bodyLimit: 1024 * 1024, testsInterval: 0, testsOnChange: false });
try {
  const context = { actor: 'urn:li:corpuser:bench', source: 'bench' };
  const write = (i: number, n: number) =>
    services.ingest
      .ingest([{ urn: datasetUrns[i % datasetUrns.length], aspect: flags.aspect, changeType: 'UPSERT', value: value(n) }], context)
      .then((changes) => services.reader.present(changes));
  for (const body of DEFINITIONS) {
    await services.ingest.ingest([{ urn: property(body.qualifiedName), aspect: 'propertyDefinition', changeType: 'UPSERT', value: body }], context);
  }
  for (let i = 0; i < datasetUrns.length; i++) await write(i, i);

  // The SQLite transaction's share: the group commit's call into the writer, timed around it.
  // (A benchmark may reach into the store; the code under test is not changed for it.)
  const writer = (services.store as unknown as { commits: { writer: { commit: (group: readonly CommitBatch[]) => unknown } } }).commits.writer;
  const commit = writer.commit.bind(writer);
  let inTransaction = 0;
  writer.commit = (group) => {
    const start = cpu();
    try {
      return commit(group);
    } finally {
      inTransaction += cpu() - start;
    }
  };
  if (services.store.location?.kind !== 'sqlite') throw new Error('expected the SQLite store');
  if (flags['no-follow']) (services.ingest as unknown as { followers: unknown[] }).followers.length = 0;

  console.log(`urnbase write path, in process${flags['no-follow'] ? ', commit followers off' : ''}: ${fmt(WRITES)} writes of ${flags.aspect} per round, ${CONCURRENCY} at a time, ${ROUNDS} rounds (the first a warm-up)`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  let n = 1_000_000;
  const totals: number[] = [];
  const transactions: number[] = [];
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    inTransaction = 0;
    const start = cpu();
    const began = performance.now();
    for (let i = 0; i < WRITES; i += CONCURRENCY) {
      await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => write(i + k, n++)));
    }
    const total = (cpu() - start) / WRITES;
    const rate = WRITES / ((performance.now() - began) / 1000);
    console.log(`round ${round + 1}: ${fmt(total, 1)} µs CPU a write, of which the SQLite transaction ${fmt(inTransaction / WRITES, 1)} µs; ${fmt(rate)} writes/s`);
    if (round > 0) {
      totals.push(total);
      transactions.push(inTransaction / WRITES);
      rates.push(rate);
    }
  }
  const [t, s] = [median(totals), median(transactions)];
  console.log(`\nmedian: ${fmt(t, 1)} µs CPU a write: SQLite transaction ${fmt(s, 1)} µs, the rest of the write path ${fmt(t - s, 1)} µs`);
  console.log(`${fmt(median(rates))} writes/s (median), before any HTTP`);
} finally {
  await app.close();
  await removeTempDir(dataDir);
}
