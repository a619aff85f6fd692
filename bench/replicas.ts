/**
 * Replica benchmark (issue 22): GET-aspect throughput of one urnbase replica against two on one
 * PostgreSQL database, on this machine. The same 1,000 seeded datasets and requests on both
 * sides; one replica is loaded by one wrk (one thread, all the connections), two replicas by two
 * wrk processes at once (one thread and half the connections each), and their rates are summed.
 * Rounds alternate the two sides; medians are reported, with every answer required to be a 2xx.
 * Everything (generators, replicas, PostgreSQL) shares the machine's cores, as in the other
 * benchmarks: the figure says what a second replica adds here, not on a bigger machine.
 *
 * usage: node dist/bench/replicas.js [--duration <s>] [--rounds <n>] [--connections <n>]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  V2,
  authHeaders,
  benchDatabase,
  encodedUrns,
  fmt,
  makeTempDir,
  median,
  removeTempDir,
  seedDatasets,
  seedTags,
  startUrnbase,
} from './harness.js';
import { requireWrk, runWrk, writeRequests, type WrkResult } from './wrk.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' } } });
const [duration, rounds, connections] = [Number(values.duration), Number(values.rounds), Number(values.connections)];
if (![duration, rounds, connections].every((n) => Number.isInteger(n) && n > 0) || connections < 2) {
  throw new Error('--duration and --rounds expect positive integers, --connections an integer of at least 2');
}
const TARGET = 1.5;

async function main(): Promise<void> {
  console.log(`urnbase replica benchmark: wrk ${requireWrk()}, ${connections} connections, ${rounds} round(s) of ${duration} s per side`);
  const database = await benchDatabase();
  const dir = await makeTempDir('urnbase-replicas-');
  const serve = (name: string) => startUrnbase(path.join(dir, name), ['--database-url', database.url, '--tests-interval', '0']);
  const [one, two] = [await serve('one'), await serve('two')];
  try {
    await seedDatasets(one.base, (i) => ({ globalTags: { value: seedTags(i) } }));
    const requests = encodedUrns.map((urn) => ({ method: 'GET' as const, path: `${V2}/dataset/${urn}/globalTags`, headers: authHeaders() }));
    const files = [path.join(dir, 'one.requests'), path.join(dir, 'two.requests')];
    await writeRequests(files[0], one.base, requests);
    await writeRequests(files[1], two.base, requests);
    const check = (side: string, result: WrkResult) => {
      const failed = result.other + result.errors.connect + result.errors.read + result.errors.write + result.errors.timeout;
      if (failed > 0) throw new Error(`${side}: ${failed} answers were not 2xx (${result.otherStatuses}) or failed`);
      return result.rate;
    };
    // Warm-up of both replicas (JIT, connections, caches).
    await Promise.all([runWrk(one.base, files[0], 2, connections / 2, false), runWrk(two.base, files[1], 2, connections / 2, false)]);
    const single: number[] = [];
    const pair: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      single.push(check('one replica', await runWrk(one.base, files[0], duration, connections, false)));
      const both = await Promise.all([runWrk(one.base, files[0], duration, Math.floor(connections / 2), false), runWrk(two.base, files[1], duration, Math.ceil(connections / 2), false)]);
      pair.push(check('replica one of two', both[0]) + check('replica two of two', both[1]));
      console.log(`round ${round}: one replica ${fmt(single.at(-1)!)} req/s | two replicas ${fmt(both[0].rate)} + ${fmt(both[1].rate)} = ${fmt(pair.at(-1)!)} req/s`);
    }
    const ratio = median(pair) / median(single);
    console.log(`\nGET aspect, median: one replica ${fmt(median(single))} req/s, two replicas ${fmt(median(pair))} req/s`);
    console.log(`two / one  ${ratio.toFixed(2)}×  target ≥ ${TARGET.toFixed(2)}×  ${ratio >= TARGET ? 'PASS' : 'FAIL'}`);
  } finally {
    await Promise.all([one.stop(), two.stop()]);
    await database.drop();
    await removeTempDir(dir);
  }
}

await main();
