import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { migrateStore, openStoreAt } from '../../src/store/open.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrate.js';

describe('opening stores (src/store/open.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-open-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('migrateStore runs every SQLite migration on a new data dir and none on a migrated one', async () => {
    const dataDir = join(dir, 'migrate');
    assert.equal(await migrateStore({ dataDir }), SQLITE_MIGRATIONS.length);
    assert.equal(await migrateStore({ dataDir }), 0);
  });

  it('openStoreAt opens the SQLite store at a location another thread gives, with its sync setting', async () => {
    const dataDir = join(dir, 'at');
    const store = await openStoreAt({ kind: 'sqlite', dataDir, sync: 'full' });
    try {
      assert.deepEqual(store.location, { kind: 'sqlite', dataDir, sync: 'full' });
    } finally {
      await store.close();
    }
  });
});
