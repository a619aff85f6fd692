import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { CLIENT_GONE_LOG } from '../../src/api/errors.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { datasetUrn } from '../helpers.js';

/** The app's log lines, parsed. */
class LogCapture extends Writable {
  readonly lines: Array<{ level: number; msg?: string; res?: { statusCode?: number } }> = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as LogCapture['lines'][number]);
    done();
  }
}

const DATASETS = 300;
/** Each step of a search is made to cost this long (the store's test hook), so that a search of ~300 steps runs over 1.5 s. */
const STEP_MS = 5;

/**
 * SQLite (a file's store): a search whose client has gone is stopped between two of its steps (a
 * statement's rows), and the event loop is free meanwhile; searches abandoned for the next
 * keystroke do not hold up the one that is waited for. A real search is made slow here by the
 * store's test hook, which busy-waits before each step: a catalog big enough to make a search
 * run a second would take minutes to write.
 */
describe('SQLite: a search whose client has gone is stopped between its steps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-cancel-'));
  const logs = new LogCapture();
  let app: FastifyInstance;
  let store: SqliteStore;
  let base: string;
  let steps = 0;
  const slowSteps = () => {
    steps++;
    const end = performance.now() + STEP_MS;
    while (performance.now() < end);
  };

  before(async () => {
    let services;
    ({ app, services } = await buildApp({ dataDir: dir, logLevel: 'info', logStream: logs, bodyLimit: 1 << 24 }));
    store = services.store as SqliteStore;
    const res = await app.inject({
      method: 'POST',
      url: '/openapi/v2/entity/dataset',
      payload: Array.from({ length: DATASETS }, (_, i) => ({ urn: datasetUrn(`cancel.t${String(i).padStart(3, '0')}`), aspects: { datasetProperties: { value: { name: `table ${i}` } } } })),
    });
    assert.equal(res.statusCode, 202, res.body.slice(0, 300));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    // fetch opens a connection for a request it then aborts before sending it (the as-you-type
    // test): the server waits for that connection's first request until its headers timeout
    // (60 s), and close() with it. Closed here, so that the test ends at once.
    app.server.closeAllConnections();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** All the datasets, sorted by name: some 300 row steps. */
  const everything = (signal?: AbortSignal) => fetch(`${base}/openapi/v2/entity/dataset?query=*&count=${DATASETS}&sort=name`, signal ? { signal } : {});

  const until = async (what: () => boolean, ms: number) => {
    const began = performance.now();
    while (!what()) {
      if (performance.now() - began > ms) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  };

  it('a client that goes after 100 ms: its search stops within a slice, other requests are answered at once, and the next search answers in full', async () => {
    store.beforeSearchStep = slowSteps;
    try {
      const cancelledBefore = store.searchesCancelled;
      const client = new AbortController();
      const searched = everything(client.signal).catch((error: Error) => error);
      // The client goes 100 ms after the search began (it begins later on a busy machine).
      assert.ok(await until(() => steps > 0, 2000), 'the search did not begin');
      await new Promise((r) => setTimeout(r, 100));
      client.abort();
      assert.ok((await searched) instanceof Error);
      // The event loop is free while the search runs or stops: a quick request answers at once.
      const began = performance.now();
      assert.equal((await fetch(`${base}/health`)).status, 200);
      assert.ok(performance.now() - began < 200, `/health took ${(performance.now() - began).toFixed(0)} ms`);
      assert.ok(await until(() => store.searchesCancelled === cancelledBefore + 1, 1000), 'the search was not stopped');
      const stoppedAt = steps;
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(steps, stoppedAt, 'the search went on after it was stopped');
      assert.ok(steps < DATASETS / 2, `${steps} steps were taken of some ${DATASETS}`);
    } finally {
      store.beforeSearchStep = undefined;
    }
    const res = await everything();
    assert.equal(res.status, 200);
    const body = (await res.json()) as { totalCount: number; results: unknown[] };
    assert.equal(body.totalCount, DATASETS);
    assert.equal(body.results.length, DATASETS);
  });

  it('as-you-type: of three searches each abandoned for the next, only the last runs to its end', async () => {
    store.beforeSearchStep = slowSteps;
    try {
      const cancelledBefore = store.searchesCancelled;
      steps = 0;
      const first = new AbortController();
      const second = new AbortController();
      const abandoned = [everything(first.signal).catch((error: Error) => error)];
      await new Promise((r) => setTimeout(r, 60));
      first.abort();
      abandoned.push(everything(second.signal).catch((error: Error) => error));
      await new Promise((r) => setTimeout(r, 60));
      second.abort();
      const began = performance.now();
      const last = await everything();
      const took = performance.now() - began;
      assert.equal(last.status, 200);
      assert.equal(((await last.json()) as { totalCount: number }).totalCount, DATASETS);
      for (const search of await Promise.all(abandoned)) assert.ok(search instanceof Error);
      assert.equal(store.searchesCancelled, cancelledBefore + 2);
      // The last search's own steps, and the few the first took before its client went.
      assert.ok(steps < DATASETS * 1.5, `${steps} steps for one search of some ${DATASETS}`);
      assert.ok(took < DATASETS * STEP_MS * 1.5 + 1000, `the last search took ${took.toFixed(0)} ms`);
    } finally {
      store.beforeSearchStep = undefined;
    }
  });

  it('GraphQL: a search whose client goes is stopped too', async () => {
    store.beforeSearchStep = slowSteps;
    try {
      const cancelledBefore = store.searchesCancelled;
      const stepsBefore = steps;
      const client = new AbortController();
      const searched = fetch(`${base}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ searchAcrossEntities(input: {query: "*", types: [DATASET], count: ${DATASETS}}) { total searchResults { entity { urn } } } }` }),
        signal: client.signal,
      }).catch((error: Error) => error);
      assert.ok(await until(() => steps > stepsBefore, 2000), 'the search did not begin');
      await new Promise((r) => setTimeout(r, 100));
      client.abort();
      assert.ok((await searched) instanceof Error);
      assert.ok(await until(() => store.searchesCancelled === cancelledBefore + 1, 1000), 'the search was not stopped');
      assert.ok(steps - stepsBefore < DATASETS / 2, `${steps - stepsBefore} steps were taken of some ${DATASETS}`);
    } finally {
      store.beforeSearchStep = undefined;
    }
  });

  it('logs the stopped searches at info, and nothing as an error', () => {
    assert.deepEqual(
      logs.lines.filter((l) => l.level >= 50),
      [],
    );
    assert.ok(logs.lines.filter((l) => l.msg === CLIENT_GONE_LOG && l.level === 30).length >= 4, 'no line says a search was stopped');
  });
});
