import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PG_MIGRATIONS } from '../../src/store/postgres/migrate.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const run = promisify(execFile);
const skip = (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE;
if (skip) console.log(`# ${skip}`);

describe('urnbase migrate', () => {
  it('refuses a database URL that is not postgres:// or postgresql:// (exit code 2)', () => {
    const result = spawnSync(process.execPath, [MAIN, 'migrate', '--database-url', 'mysql://h/db'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.equal(
      result.stderr,
      'urnbase: Invalid --database-url "mysql://h/db": expected a URL starting with postgres:// or postgresql://; try urnbase migrate --help\n',
    );
  });

  it('brings a SQLite data dir up to date', () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnbase-migrate-cli-'));
    try {
      const result = spawnSync(process.execPath, [MAIN, 'migrate', '--data-dir', dir], { encoding: 'utf8', env: { ...process.env, URNBASE_DATABASE_URL: '' } });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `SQLite schema up to date in ${dir}\n`);
      assert.ok(existsSync(join(dir, 'urnbase.db')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the PostgreSQL migrations once, even when two processes start together', { skip }, async () => {
    const database = await createTestDatabase();
    try {
      const together = await Promise.all([0, 1].map(() => run(process.execPath, [MAIN, 'migrate', '--database-url', database.url])));
      const applied = together.map((r) => Number(/\((\d+) migrations? applied\)/.exec(r.stdout)?.[1])).sort();
      assert.deepEqual(applied, [0, PG_MIGRATIONS.length]);
      const again = await run(process.execPath, [MAIN, 'migrate'], { env: { ...process.env, URNBASE_DATABASE_URL: database.url } });
      assert.equal(again.stdout, 'PostgreSQL schema up to date (0 migrations applied)\n');
    } finally {
      await database.drop();
    }
  });
});
