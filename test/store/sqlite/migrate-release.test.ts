import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { buildApp } from '../../../src/app.js';
import { Ingest } from '../../../src/ingest/ingest.js';
import { Registry } from '../../../src/registry/registry.js';
import { SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrate.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import type { Store } from '../../../src/store/store.js';
import { exportCatalog } from '../../../src/transfer/export.js';
import { importExport } from '../../../src/transfer/import.js';

/**
 * A data dir made by urnbase 0.1.0 through its HTTP API (test/fixtures/release-0.1.0: make.mjs
 * wrote it, dump-reads.mjs read its change log and versions with that release's store, and
 * dump-search.mjs took that release's search answers over a copy), opened by
 * this code: the migration converts it in place, and nothing reads back any differently.
 */
const FIXTURE = fileURLToPath(new URL('../../../../test/fixtures/release-0.1.0/', import.meta.url));
const registry = Registry.load();
const exported = readFileSync(join(FIXTURE, 'export.ndjson'), 'utf8').split('\n').filter((l) => l !== '');
const exportedAt = new Date((JSON.parse(exported[0]) as { exportedAt: string }).exportedAt);
const reads = JSON.parse(readFileSync(join(FIXTURE, 'reads.json'), 'utf8')) as { events: unknown[]; versions: unknown[] };

async function exportLines(store: Store): Promise<string[]> {
  const lines: string[] = [];
  await exportCatalog(store, registry, { includeTokens: true, now: exportedAt }, async (line) => void lines.push(line));
  return lines;
}

/** What dump-reads.mjs read with 0.1.0: every event, and every version of every aspect. */
async function readAll(store: Store): Promise<{ events: unknown[]; versions: unknown[] }> {
  const events = await store.readEvents(0, 100000);
  const versions = [];
  for (const type of ['dataset', 'structuredProperty', 'test', 'dataPlatform', 'dataType', 'entityType']) {
    for (const row of await store.getLatestRange(type, undefined, `urn:li:${type};`)) {
      for (let v = 0; ; v++) {
        const got = await store.getVersion(row.urn, row.aspect, v);
        if (!got) break;
        versions.push({ urn: got.urn, aspect: got.aspect, version: got.version, value: got.value, systemMetadata: got.systemMetadata });
      }
    }
  }
  return JSON.parse(JSON.stringify({ events, versions })) as { events: unknown[]; versions: unknown[] };
}

describe('a data dir of urnbase 0.1.0, migrated in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-release-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const copy = (name: string) => {
    cpSync(join(FIXTURE, 'data'), join(dir, name), { recursive: true });
    return join(dir, name);
  };

  it('runs the new steps, then exports line for line what 0.1.0 exported, and reads the same events and versions', async () => {
    const data = copy('read');
    const before = new Database(join(data, 'urnbase.db'), { readonly: true });
    const releaseSteps = before.pragma('user_version', { simple: true }) as number;
    before.close();
    assert.equal(releaseSteps, 7);
    const store = new SqliteStore(data);
    assert.equal(store.migrationsRun, SQLITE_MIGRATIONS.length - releaseSteps);
    assert.deepEqual(await exportLines(store), exported);
    const now = await readAll(store);
    assert.equal(now.events.length, 235);
    assert.deepEqual(now, reads);
    await store.close();

    // The usual system metadata went into compact columns; the rest kept its JSON: a client's
    // properties, and a touch that added a runId after aspectModified.
    const db = new Database(join(data, 'urnbase.db'), { readonly: true });
    const count = (sql: string) => db.prepare<[], number>(sql).pluck().get();
    assert.equal(count(`SELECT count(*) FROM aspects WHERE system_metadata = ''`), 206);
    assert.equal(count(`SELECT count(*) FROM aspects WHERE system_metadata <> '' AND system_metadata LIKE '%"runId":"touch-run"}'`), 1);
    assert.equal(count(`SELECT count(*) FROM aspect_history WHERE system_metadata = ''`), 10);
    assert.equal(count(`SELECT count(*) FROM aspect_history WHERE system_metadata LIKE '%"pipeline":"nightly"%'`), 3);
    assert.equal(count(`SELECT count(*) FROM change_log WHERE system_metadata = ''`), 226);
    assert.equal(count(`SELECT count(*) FROM change_log WHERE system_metadata LIKE '%"pipeline":"nightly"%'`), 3);
    assert.equal(count(`SELECT count(*) FROM change_log WHERE system_metadata IS NULL AND change_type = 'DELETE'`), 6);
    // Events written before keep their values inline.
    assert.equal(count(`SELECT count(*) FROM change_log WHERE value_of IS NOT NULL OR previous_of IS NOT NULL`), 0);
    db.close();
  });

  it('takes new writes over old rows: updates and deletes read back as events of the release did', async () => {
    const data = copy('write');
    const store = new SqliteStore(data);
    const ingest = new Ingest(store, registry);
    const context = { actor: 'urn:li:corpuser:migrated', source: 'TEST' };
    const hive0 = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders_0,PROD)';
    const [latest] = await store.getLatest(hive0, ['datasetProperties']);
    await ingest.ingest([{ urn: hive0, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'orders_0', description: 'version 5' } }], context);
    await ingest.ingest([{ urn: hive0, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'orders_0', description: 'version 6' } }], context);
    await ingest.ingest([{ urn: hive0, aspect: 'datasetProperties', changeType: 'DELETE' }], context);
    const events = (await store.readEvents(235, 100)).map((e) => [e.changeType, e.value, e.previousValue, e.systemMetadata?.version]);
    assert.deepEqual(events, [
      ['UPSERT', { name: 'orders_0', description: 'version 5' }, latest.value, '5'],
      ['UPSERT', { name: 'orders_0', description: 'version 6' }, { name: 'orders_0', description: 'version 5' }, '6'],
      ['DELETE', null, { name: 'orders_0', description: 'version 6' }, undefined],
    ]);
    assert.deepEqual((await store.readEvents(0, 235)).map((e) => JSON.parse(JSON.stringify(e)) as unknown), reads.events);
    await store.close();
  });

  it('rebuilds the search index at start (migration 9 numbers its fields): searches answer byte for byte as 0.1.0 did', async () => {
    // search.json: dump-search.mjs's answers with 0.1.0's app over the same data dir.
    const answers = JSON.parse(readFileSync(join(FIXTURE, 'search.json'), 'utf8')) as Record<string, { status: number; body: string }>;
    const { app } = await buildApp({ dataDir: copy('search'), logLevel: 'silent', bodyLimit: 1 << 20 });
    assert.equal(Object.keys(answers).length, 4);
    for (const [url, answer] of Object.entries(answers)) {
      const res = await app.inject({ method: 'GET', url });
      assert.deepEqual({ status: res.statusCode, body: res.body }, answer, url);
    }
    await app.close();
  });

  it('imports the release\'s export into a new store and exports it again line for line', async () => {
    const file = join(dir, 'export.ndjson');
    writeFileSync(file, `${exported.join('\n')}\n`);
    const store = new SqliteStore(join(dir, 'imported'));
    await importExport(store, registry, file, { includeTokens: true, replace: false });
    assert.deepEqual(await exportLines(store), exported);
    await store.close();
  });
});
