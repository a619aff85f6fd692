import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerProcess } from '../server-process.js';
import type { Client } from './client.js';
import { describeNon2xx, describeSent, emptyLoadFigures, MixedLoad, totalSent } from './mixed-load.js';
import { level, reliabilityStores, serveFresh } from './target.js';

const ADMIN = 'urnb_reliability-memory-admin-0123456789abcdefghij';
const MB = 1024 * 1024;
const CLIENTS = level(16, 32);
/** Distinct datasets: the catalog grows to this many during the warm-up. */
const ENTITIES = level(400, 6_000);
/**
 * Before the baseline the same load grows the catalog to its full size, then runs on it this long,
 * so JIT, caches and the SQLite page cache are primed and the baseline and "after" see one catalog.
 */
const SETTLE_MS = level(5_000, 20_000);
const LOAD_MS = level(8_000, 180_000);
/** Idle time before the baseline is read and before "after" is read. */
const IDLE_MS = level(4_000, 8_000);
const PEAK_LIMIT = 300 * MB;
/**
 * A leak shows in the live heap: what a full collection leaves, which the server measures once
 * requests stop for 2 s (`urnbase_heap_live_bytes`). On the same catalog, after the load it may
 * exceed the baseline by this much: measured within a few MB (README, Reliability); 10 MB after
 * the full run's ~40,000 requests is 250 bytes kept per request.
 */
const LIVE_ALLOWANCE = 10 * MB;
/**
 * Resident memory does not come back to the byte: V8 keeps the heap pages it grew under load
 * mapped (the idle collection empties them, no API unmaps them). Measured after − baseline in the
 * README's Reliability section; 50 MB is a sixth of the 300 MB target.
 */
const RSS_ALLOWANCE = 50 * MB;
const SAMPLE_MS = 250;

/** The server's RSS every 250 ms while it runs. */
class RssSampler {
  readonly samples: number[] = [];
  private timer?: NodeJS.Timeout;
  constructor(private readonly server: ServerProcess) {}
  start(): void {
    this.samples.push(this.server.rss());
    this.timer = setInterval(() => this.samples.push(this.server.rss()), SAMPLE_MS);
  }
  stop(): number[] {
    clearInterval(this.timer);
    return this.samples;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The median RSS over the last second of an idle wait (one sample can catch a GC mid-way). */
async function idleRss(server: ServerProcess, ms: number): Promise<number> {
  await pause(ms - 1_000);
  const samples: number[] = [];
  for (let i = 0; i < 4; i++) {
    samples.push(server.rss());
    await pause(SAMPLE_MS);
  }
  return median(samples);
}

/** The server's own memory figures: the live heap after its last idle collection, and V8's heap now. */
async function heap(client: Client): Promise<{ live: number; text: string }> {
  const metrics = await client.call('GET', '/metrics');
  const read = (name: string) => Number(new RegExp(`^urnbase_${name} (\\S+)$`, 'm').exec(String(metrics.body))?.[1] ?? NaN);
  const live = read('heap_live_bytes');
  return { live, text: `live heap ${mb(live)}, heap now ${mb(read('nodejs_heap_size_used_bytes'))} used of ${mb(read('nodejs_heap_size_total_bytes'))}` };
}

/** What one run measured, for the assertions. */
interface Measured {
  baseline: number;
  peak: number;
  after: number;
  liveBaseline: number;
  liveAfter: number;
}

for (const { kind, skip } of await reliabilityStores()) {
  describe(`memory on ${kind}: ${CLIENTS} clients of mixed load for ${LOAD_MS / 1000} s`, { skip }, () => {
    const served = serveFresh(kind, ADMIN);
    let measured: Measured | undefined;

    it('answers every request of the sustained mixed load with a 2xx', async (t) => {
      const { server, client } = served;
      const load = new MixedLoad(client, ENTITIES);
      await load.prepare();
      const started = server.rss();
      const warmup = emptyLoadFigures();
      const sampler = new RssSampler(server);
      sampler.start();
      const grownIn = Date.now();
      while (load.written < ENTITIES) await load.run(CLIENTS, 1_000, warmup, true);
      const growSeconds = (Date.now() - grownIn) / 1000;
      await load.run(CLIENTS, SETTLE_MS, warmup, false);
      const warmupPeak = Math.max(...sampler.stop());
      const baseline = await idleRss(server, IDLE_MS);
      const heapBaseline = await heap(client);

      const figures = emptyLoadFigures();
      const loadSampler = new RssSampler(server);
      loadSampler.start();
      const began = Date.now();
      await load.run(CLIENTS, LOAD_MS, figures, false);
      const seconds = (Date.now() - began) / 1000;
      const samples = loadSampler.stop();
      const heapLoaded = await heap(client);
      const afterLoad = await idleRss(server, IDLE_MS);
      const heapAfter = await heap(client);

      const half = Math.floor(samples.length / 2);
      measured = { baseline, peak: Math.max(warmupPeak, ...samples), after: afterLoad, liveBaseline: heapBaseline.live, liveAfter: heapAfter.live };
      const requests = totalSent(figures);
      t.diagnostic(
        `${kind}: warm-up ${totalSent(warmup)} requests (catalog grown to ${load.written} datasets in ${growSeconds.toFixed(0)} s, then ${SETTLE_MS / 1000} s on it); ` +
          `load ${requests} requests in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)}/s) from ${CLIENTS} clients`,
      );
      t.diagnostic(`${kind}: sent ${describeSent(figures)}`);
      t.diagnostic(`${kind}: non-2xx ${describeNon2xx(figures)}; 5xx ${figures.serverErrors}; no answer ${figures.connectionErrors}; in the warm-up: non-2xx ${describeNon2xx(warmup)}, no answer ${warmup.connectionErrors}`);
      t.diagnostic(
        `${kind}: RSS at start ${mb(started)}, peak while growing ${mb(warmupPeak)}, baseline ${mb(baseline)}, peak under load ${mb(Math.max(...samples))}, ` +
          `halves of the load ${mb(median(samples.slice(0, half)))} then ${mb(median(samples.slice(half)))} (medians), after ${mb(afterLoad)} (${samples.length} samples)`,
      );
      t.diagnostic(`${kind}: baseline: ${heapBaseline.text}; end of load: ${heapLoaded.text}; after: ${heapAfter.text}`);
      for (const example of [...warmup.examples, ...figures.examples]) t.diagnostic(`${kind}: ${example}`);

      assert.equal(figures.serverErrors + warmup.serverErrors, 0, '5xx answers');
      assert.equal(figures.connectionErrors + warmup.connectionErrors, 0, 'requests without an answer');
      assert.deepEqual([...figures.non2xx, ...warmup.non2xx], [], 'every answer is a 2xx');
    });

    it(`keeps resident memory under ${PEAK_LIMIT / MB} MB throughout the load`, () => {
      assert.ok(measured, 'the load ran');
      assert.ok(measured.peak < PEAK_LIMIT, `peak RSS ${mb(measured.peak)}`);
    });

    it('keeps no memory per request: the live heap after the load is the baseline\'s', () => {
      assert.ok(measured, 'the load ran');
      assert.ok(measured.liveAfter <= measured.liveBaseline + LIVE_ALLOWANCE, `live heap ${mb(measured.liveBaseline)} before, ${mb(measured.liveAfter)} after`);
    });

    it('returns close to its baseline resident memory once the load stops', () => {
      assert.ok(measured, 'the load ran');
      assert.ok(measured.after <= measured.baseline + RSS_ALLOWANCE, `RSS ${mb(measured.baseline)} before, ${mb(measured.after)} after`);
    });
  });
}
