import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/open.js';
import { testApp } from '../helpers.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE, type TestDatabase } from '../pg.js';
import { datasetUrn, write } from '../search/fixtures.js';

/**
 * The promise: exporting from SQLite and importing into PostgreSQL yields an identical
 * catalog. Runs in a PostgreSQL database of its own (test/pg.ts), dropped after.
 */

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

let database: TestDatabase | undefined;

/** Creates the test's own database; says why not when there is no server or no PostgreSQL store. */
async function createDatabase(): Promise<string | undefined> {
  if (!(await postgresAvailable())) return PG_SKIP_MESSAGE;
  database = await createTestDatabase();
  try {
    await (await openStore({ dataDir: ':memory:', databaseUrl: database.url })).close();
  } catch (error) {
    await database.drop();
    return `this build has no PostgreSQL store (${(error as Error).message})`;
  }
  return undefined;
}

const skip = await createDatabase();
if (skip) console.log(`# skipping the SQLite → PostgreSQL export/import test: ${skip}`);
const url = database?.url ?? '';

function urnbase(...args: string[]) {
  const env = { ...process.env };
  delete env.URNBASE_DATABASE_URL;
  delete env.URNBASE_DATA_DIR;
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env });
}

describe('export from SQLite, import into PostgreSQL', { skip }, () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-transfer-pg-'));

  before(async () => {
    const t = await testApp({ dataDir: join(root, 'source') }, { sqlite: true });
    const ds = datasetUrn('transfer.pg');
    await write(t, 'dataset', ds, 'datasetProperties', { name: 'pg', description: 'one' });
    await write(t, 'dataset', ds, 'datasetProperties', { name: 'pg', description: 'two' });
    await write(t, 'dataset', ds, 'globalTags', { tags: [{ tag: 'urn:li:tag:moved' }] });
    await t.services.tokens.create({ name: 'ci', role: 'viewer' }, 'urn:li:corpuser:admin');
    await t.app.close();
  });
  after(async () => {
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('yields an identical catalog, tokens included when asked', () => {
    const from = join(root, 'sqlite.ndjson');
    const back = join(root, 'postgres.ndjson');
    assert.equal(urnbase('export', '--data-dir', join(root, 'source'), '--include-tokens', '-o', from).status, 0);
    const imported = urnbase('import', '-f', from, '--database-url', url, '--include-tokens');
    assert.equal(imported.status, 0, imported.stderr);
    const exported = urnbase('export', '--database-url', url, '--include-tokens', '-o', back);
    assert.equal(exported.status, 0, exported.stderr);
    const body = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(1);
    assert.deepEqual(body(back), body(from));
  });
});
