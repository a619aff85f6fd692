import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, PG_SKIP_MESSAGE, postgresAvailable } from '../pg.js';
import pg from 'pg';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** A port some other program listens on, for the length of `work`. */
async function withPortTaken(work: (port: number) => Promise<void> | void): Promise<void> {
  const other = createServer();
  await new Promise<void>((resolve) => other.listen({ port: 0, host: '127.0.0.1' }, resolve));
  try {
    await work((other.address() as AddressInfo).port);
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
}

const serve = (...args: string[]) => {
  const env = { ...process.env };
  delete env.URNBASE_ADMIN_TOKEN;
  return spawnSync(process.execPath, [MAIN, 'serve', '--host', '127.0.0.1', ...args], { encoding: 'utf8', env, timeout: 60_000 });
};

describe('urnbase serve on a port in use', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-port-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('stops with exit code 1 and one line before writing the data dir, its database or an admin token', async () => {
    await withPortTaken((port) => {
      const dir = join(root, 'fresh');
      const run = serve('--port', String(port), '--data-dir', dir);
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `urnbase: cannot listen on 127.0.0.1:${port}: the port is in use: stop what listens there, or choose another port with --port (npm start -- --port 8081); nothing was written\n`,
      );
      assert.equal(existsSync(dir), false, 'the data dir was not created');
    });
  });
});

describe('urnbase serve on a port in use, on PostgreSQL', { skip: (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE }, () => {
  it('creates no table in the database', async () => {
    const database = await createTestDatabase();
    try {
      await withPortTaken(async (port) => {
        const run = serve('--port', String(port), '--database-url', database.url);
        assert.equal(run.status, 1);
        assert.match(run.stderr, /^urnbase: cannot listen on 127\.0\.0\.1:\d+: the port is in use: .*; nothing was written\n$/);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
          assert.equal(rows[0].n, 0);
        } finally {
          await client.end();
        }
      });
    } finally {
      await database.drop();
    }
  });
});
