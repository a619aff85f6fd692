import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { bootstrapAdminToken } from '../../src/auth/bootstrap.js';
import { TokenService } from '../../src/auth/tokens.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Collects the bootstrap's log lines. */
function recordingLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
  };
}

describe('the first admin token and the data dir', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-bootstrap-'));
  let store: SqliteStore;
  let tokens: TokenService;
  beforeEach(() => {
    // The tokens live apart from the data dir, as on PostgreSQL: nothing else creates the dir.
    store = new SqliteStore(':memory:');
    tokens = new TokenService(store);
  });
  afterEach(() => store.close());
  after(() => rmSync(root, { recursive: true, force: true }));

  it('creates a missing data dir and its parent 0700, writes admin.token 0600, and logs the path, never the token', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const log = recordingLog();
    const file = join(dataDir, 'admin.token');
    assert.equal(await bootstrapAdminToken(tokens, dataDir, log), file, 'gives the file it wrote (the start banner names it)');
    assert.deepEqual([mode(join(root, 'fresh')), mode(dataDir), mode(file)], ['700', '700', '600']);
    const token = readFileSync(file, 'utf8').trim();
    assert.deepEqual((await tokens.authenticate(token))?.role, 'admin');
    assert.deepEqual(log.lines, [{ level: 'info', obj: { file }, msg: 'created the first admin token; read it from this file' }]);
  });

  it('makes a world-readable admin.token left from an earlier catalog owner-only before writing the new token', async () => {
    const dataDir = join(root, 'loose');
    mkdirSync(dataDir, { mode: 0o700 });
    const file = join(dataDir, 'admin.token');
    writeFileSync(file, 'urnb_an-old-token-of-a-catalog-since-wiped\n');
    chmodSync(file, 0o644);
    await bootstrapAdminToken(tokens, dataDir, recordingLog());
    assert.equal(mode(file), '600');
    const token = readFileSync(file, 'utf8').trim();
    assert.equal((await tokens.authenticate(token))?.role, 'admin');
  });

  it('creates no token when the token file cannot be written, so the next start tries again', async () => {
    const dataDir = join(root, 'unwritable');
    mkdirSync(join(dataDir, 'admin.token'), { recursive: true }); // a directory where the file should go
    await assert.rejects(bootstrapAdminToken(tokens, dataDir, recordingLog()), { code: 'EISDIR' });
    assert.equal(await tokens.any(), false);
  });

  it('does nothing once a token exists', async () => {
    await tokens.create({ name: 'ci', role: 'editor' }, 'test');
    const dataDir = join(root, 'has-token');
    assert.equal(await bootstrapAdminToken(tokens, dataDir, recordingLog()), undefined);
    assert.throws(() => statSync(dataDir), { code: 'ENOENT' });
  });

  it('keeps a new SQLite catalog owner-only in a data dir its operator made world-readable', async () => {
    const dataDir = join(root, 'operator-made');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const catalog = new SqliteStore(dataDir);
    try {
      const catalogTokens = new TokenService(catalog);
      await bootstrapAdminToken(catalogTokens, dataDir, recordingLog());
      assert.deepEqual(
        ['urnbase.db', 'urnbase.db-wal', 'urnbase.db-shm', 'admin.token'].map((f) => [f, mode(join(dataDir, f))]),
        [['urnbase.db', '600'], ['urnbase.db-wal', '600'], ['urnbase.db-shm', '600'], ['admin.token', '600']],
      );
      assert.equal(mode(dataDir), '755', "the operator's own directory keeps its mode");
    } finally {
      await catalog.close();
    }
  });
});
