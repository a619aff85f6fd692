import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { ClientGoneError } from '../../../src/errors.js';
import { cancellableRows } from '../../../src/store/postgres/pool.js';
import { PG_ADMIN_URL, postgresAvailable, PG_SKIP_MESSAGE } from '../../pg.js';

/**
 * cancellableRows, the statement of a search whose client may go: a running statement is
 * cancelled and its connection goes back to the pool healthy (the same backend serves the next
 * statement); a statement still waiting for a connection when its client goes is never sent.
 * pg_sleep stands for a slow search: it runs as long as asked, whatever the machine's load.
 */
describe('PostgreSQL: statements cancelled when their client goes', async () => {
  const available = await postgresAvailable();
  const skip = available ? false : PG_SKIP_MESSAGE;
  let pool: pg.Pool;
  let admin: pg.Client;
  before(async () => {
    if (!available) return;
    pool = new pg.Pool({ connectionString: PG_ADMIN_URL, max: 1, application_name: 'urnbase-cancellable-rows' });
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
  });
  after(async () => {
    if (!available) return;
    await pool.end();
    await admin.end();
  });

  /** The pool's statements that sleep now. */
  const sleeping = async () =>
    (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'urnbase-cancellable-rows' AND query LIKE '%pg_sleep%' AND state = 'active'`)).rows[0].n;
  const gone = (controller: AbortController) => controller.abort(new ClientGoneError());
  const pid = async () => (await cancellableRows<{ pid: number }>(pool, 'SELECT pg_backend_pid() AS pid', [], new AbortController().signal))[0].pid;

  it('a running statement is cancelled within a moment, and its connection serves the next one', { skip }, async () => {
    const before = await pid();
    const client = new AbortController();
    const began = performance.now();
    const slow = cancellableRows(pool, 'SELECT pg_sleep(5)', [], client.signal).catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await sleeping(), 1);
    gone(client);
    assert.ok((await slow) instanceof ClientGoneError);
    assert.ok(performance.now() - began < 1500, `cancelled after ${(performance.now() - began).toFixed(0)} ms`);
    assert.equal(await sleeping(), 0);
    // The same backend, idle again: the connection went back to the pool, not closed.
    assert.equal(await pid(), before);
  });

  it('a statement still waiting for a connection when its client goes is never sent', { skip }, async () => {
    const first = new AbortController();
    const second = new AbortController();
    // The pool's one connection is taken by the first; the second waits for it.
    const running = cancellableRows(pool, 'SELECT pg_sleep(0.5)', [], first.signal);
    const waiting = cancellableRows(pool, 'SELECT pg_sleep(5)', [], second.signal).catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 100));
    gone(second);
    await running;
    const began = performance.now();
    assert.ok((await waiting) instanceof ClientGoneError);
    assert.ok(performance.now() - began < 200);
    assert.equal(await sleeping(), 0);
  });
});
