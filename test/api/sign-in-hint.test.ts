import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isLoopback, signInHint } from '../../src/api/v2/sign-in-hint.js';

describe('the sign-in hint: where the first admin token is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-hint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'admin.token');
  writeFileSync(file, 'urnb_x\n', { mode: 0o600 });

  it('names the file on a loopback binding only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) {
      assert.deepEqual(signInHint({ dataDir: dir, host, adminTokenFromEnv: false }), { adminToken: 'file', file }, host);
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'catalog.example.com', undefined]) {
      assert.deepEqual(signInHint({ dataDir: dir, host, adminTokenFromEnv: false }), { adminToken: 'data-dir' }, String(host));
    }
    assert.equal(isLoopback('127.0.0.1.example.com'), false);
  });

  it('says the environment holds it, or that no file is left', () => {
    assert.deepEqual(signInHint({ dataDir: dir, host: '127.0.0.1', adminTokenFromEnv: true }), { adminToken: 'environment' });
    assert.deepEqual(signInHint({ dataDir: ':memory:', host: '127.0.0.1', adminTokenFromEnv: false }), { adminToken: 'none' });
    assert.deepEqual(signInHint({ dataDir: join(dir, 'elsewhere'), host: '127.0.0.1', adminTokenFromEnv: false }), { adminToken: 'none' });
  });
});
