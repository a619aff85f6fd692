import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { CLIENT_GONE_LOG } from '../../../src/api/errors.js';
import { datasetUrn, enc } from '../../helpers.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE, type TestDatabase } from '../../pg.js';

/**
 * A search whose client has gone is cancelled in PostgreSQL too: its query does not go on running
 * (or waiting) for nobody until the server's own timeout. The search is held up by a lock taken
 * here, so that it is still running when the client gives up.
 */
/** The app's log lines, parsed. */
class LogCapture extends Writable {
  readonly lines: Array<{ level: number; msg?: string }> = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as LogCapture['lines'][number]);
    done();
  }
}

describe('PostgreSQL: a search whose client has gone is cancelled', async () => {
  const logs = new LogCapture();
  const available = await postgresAvailable();
  const skip = available ? false : PG_SKIP_MESSAGE;
  let database: TestDatabase;
  let app: FastifyInstance;
  let base: string;
  let admin: pg.Client;
  before(async () => {
    if (!available) return;
    database = await createTestDatabase();
    ({ app } = await buildApp({ dataDir: ':memory:', logLevel: 'info', logStream: logs, bodyLimit: 1024 * 1024, databaseUrl: database.url, dbPool: 4, dbTimeout: 20_000 }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/openapi/v2/entity/dataset/${enc(datasetUrn('cancel.one'))}/datasetProperties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cancel one', description: 'held up by a lock' }),
    });
    assert.equal(res.status, 200);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    if (!available) return;
    await admin.end();
    await app.close();
    await database.drop();
  });

  /** The store's backends of this database that wait for a lock. */
  const waiting = async () =>
    (
      await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
      )
    ).rows[0].n;

  const until = async (what: () => Promise<boolean>, ms: number) => {
    const began = performance.now();
    while (!(await what())) {
      if (performance.now() - began > ms) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };

  /** The store's backends of this database that wait for a lock. */
  const waitingPids = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
      )
    ).rows.map((r) => r.pid);
  const stateOf = async (pid: number) =>
    (await admin.query<{ state: string }>(`SELECT state FROM pg_stat_activity WHERE pid = $1`, [pid])).rows[0]?.state;

  it('a client that closes its connection while the query waits: the query is cancelled within a second, long before the lock is released', { skip }, async () => {
    let cancelledPid: number | undefined;
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE search_entities, search_terms IN ACCESS EXCLUSIVE MODE');
    try {
      const client = new AbortController();
      const searched = fetch(`${base}/openapi/v3/entity/scroll?count=10&query=held`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ entities: ['dataset'] }),
        signal: client.signal,
      }).catch((error: Error) => error);
      assert.ok(await until(async () => (await waiting()) > 0, 5_000), 'the search never reached the locked table');
      [cancelledPid] = await waitingPids();
      client.abort();
      assert.ok((await searched) instanceof Error);
      const began = performance.now();
      assert.ok(await until(async () => (await waiting()) === 0, 3_000), 'the query still waits 3 s after its client went away');
      assert.ok(performance.now() - began < 2_000);
    } finally {
      await admin.query('ROLLBACK');
    }
    // The cancelled query's connection went back to the pool, healthy: its backend is still there,
    // idle (read outside the transaction above, which would see pg_stat_activity as it first was).
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await stateOf(cancelledPid!), 'idle');
    // The pool is whole: the next search is answered.
    const next = await fetch(`${base}/openapi/v3/entity/scroll?count=10&query=held`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"entities":["dataset"]}' });
    assert.equal(next.status, 200);
    assert.equal(((await next.json()) as { totalCount: number }).totalCount, 1);
    // The stopped search is noted at info; nothing is logged as an error.
    assert.deepEqual(logs.lines.filter((l) => l.level >= 50), []);
    assert.ok(logs.lines.some((l) => l.msg === CLIENT_GONE_LOG && l.level === 30), 'no line says the search was stopped');
  });
});
