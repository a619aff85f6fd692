import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, PG_SKIP_MESSAGE, postgresAvailable } from '../pg.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** `urnbase …` as a process in `cwd`, without the environment's store settings. */
function urnbase(cwd: string, ...args: string[]) {
  const env = { ...process.env };
  delete env.URNBASE_DATA_DIR;
  delete env.URNBASE_DATABASE_URL;
  return spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: 'utf8', env });
}

/** The commands that work on an existing catalog only, with the arguments each needs besides the store. */
const ON_A_CATALOG: string[][] = [
  ['token', 'create', '--name', 'ci', '--role', 'admin'],
  ['token', 'list'],
  ['token', 'revoke', 'tok_123'],
  ['export'],
  ['tests', 'run'],
];

const CREATES = 'urnbase serve or urnbase migrate creates one';

describe('commands that work on a catalog refuse a data dir without one (exit 2), creating nothing', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-nocatalog-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'empty'));

  for (const args of ON_A_CATALOG) {
    it(`urnbase ${args.join(' ')} on a missing and on an empty directory`, () => {
      const missing = urnbase(root, ...args, '--data-dir', './missing');
      assert.deepEqual([missing.status, missing.stdout, missing.stderr], [2, '', `urnbase: no catalog in ./missing (no urnbase.db there); ${CREATES}\n`]);
      assert.equal(existsSync(join(root, 'missing')), false, 'no data dir was created');
      const empty = urnbase(root, ...args, '--data-dir', join(root, 'empty'));
      assert.deepEqual([empty.status, empty.stderr], [2, `urnbase: no catalog in ${join(root, 'empty')} (no urnbase.db there); ${CREATES}\n`]);
      assert.deepEqual(readdirSync(join(root, 'empty')), [], 'no urnbase.db was created');
    });
  }

  it('names the default ./data when no --data-dir is given', () => {
    const run = urnbase(root, 'token', 'list');
    assert.deepEqual([run.status, run.stderr], [2, `urnbase: no catalog in ./data (no urnbase.db there); ${CREATES}\n`]);
    assert.equal(existsSync(join(root, 'data')), false);
  });

  it('serve, migrate and import create one by design', () => {
    const migrated = urnbase(root, 'migrate', '--data-dir', './made');
    assert.deepEqual([migrated.status, migrated.stdout], [0, 'SQLite schema up to date in ./made\n']);
    const listed = urnbase(root, 'token', 'list', '--data-dir', './made');
    assert.deepEqual([listed.status, listed.stdout, listed.stderr], [0, '', ''], 'a migrated data dir is a catalog, with no tokens yet');
    const file = join(root, 'catalog.ndjson');
    assert.equal(urnbase(root, 'export', '--data-dir', './made', '-o', file).status, 0);
    const imported = urnbase(root, 'import', '-f', file, '--data-dir', './copy');
    assert.equal(imported.status, 0, imported.stderr);
    assert.ok(existsSync(join(root, 'copy', 'urnbase.db')));
  });
});

describe('on PostgreSQL, a database without urnbase tables is refused likewise', { skip: (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE }, () => {
  const tables = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0].n;
    } finally {
      await client.end();
    }
  };

  it('token, export and tests run: exit 2, the database named without its user, and no table created', async () => {
    const database = await createTestDatabase();
    try {
      const named = new URL(database.url);
      const where = `postgres://${named.host}${named.pathname}`;
      for (const args of ON_A_CATALOG) {
        const run = urnbase(tmpdir(), ...args, '--database-url', database.url);
        assert.deepEqual(
          [run.status, run.stdout, run.stderr],
          [2, '', `urnbase: no catalog in the PostgreSQL database ${where} (no urnbase tables there); ${CREATES}\n`],
          args.join(' '),
        );
      }
      assert.equal(await tables(database.url), 0, 'nothing was created');
      const migrated = urnbase(tmpdir(), 'migrate', '--database-url', database.url);
      assert.equal(migrated.status, 0, migrated.stderr);
      const listed = urnbase(tmpdir(), 'token', 'list', '--database-url', database.url);
      assert.deepEqual([listed.status, listed.stderr], [0, '']);
    } finally {
      await database.drop();
    }
  });
});

describe('a file where the data dir should be', () => {
  it('is no catalog either', () => {
    const root = mkdtempSync(join(tmpdir(), 'urnbase-nocatalog-file-'));
    try {
      writeFileSync(join(root, 'data'), 'not a directory');
      const run = urnbase(root, 'export', '--data-dir', 'data');
      assert.deepEqual([run.status, run.stderr], [2, `urnbase: no catalog in data (no urnbase.db there); ${CREATES}\n`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
