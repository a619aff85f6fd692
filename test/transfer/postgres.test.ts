import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStore } from '../../src/store/open.js';
import { testApp } from '../helpers.js';
import { datasetUrn, write } from '../search/fixtures.js';

/**
 * The promise: exporting from SQLite and importing into PostgreSQL yields an identical
 * catalog. Runs against the PostgreSQL at 127.0.0.1:5432 in a database of its own, dropped after.
 */

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const SERVER = process.env.URNBASE_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';

const database = `urnbase_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const url = `${SERVER}/${database}`;

/** Creates the test's own database; says why not when there is no server or no PostgreSQL store. */
async function createDatabase(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres`, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
  } catch (error) {
    return `no PostgreSQL server answers at ${SERVER} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    await (await openStore({ dataDir: ':memory:', databaseUrl: url })).close();
  } catch (error) {
    await dropDatabase();
    return `this build has no PostgreSQL store (${(error as Error).message})`;
  }
  return undefined;
}

async function dropDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
}

const skip = await createDatabase();
if (skip) console.log(`# skipping the SQLite → PostgreSQL export/import test: ${skip}`);

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
    await dropDatabase();
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
