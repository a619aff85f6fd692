import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { clientFor } from '../../src/cli/client.js';
import { ConfigError } from '../../src/config.js';

describe('the token of the HTTP commands', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-client-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'admin.token'), 'urnb_from-the-file-0123456789abcdefghijklmnop\n');
  after(() => rmSync(root, { recursive: true, force: true }));
  const token = (values: { url?: string; token?: string; 'data-dir'?: string }, env: NodeJS.ProcessEnv = {}) =>
    clientFor('properties list', values, env).options.token;

  it('is --token, else $URNBASE_TOKEN, else <data-dir>/admin.token', () => {
    assert.equal(token({ token: 'urnb_flag', 'data-dir': dataDir }, { URNBASE_TOKEN: 'urnb_env' }), 'urnb_flag');
    assert.equal(token({ 'data-dir': dataDir }, { URNBASE_TOKEN: 'urnb_env' }), 'urnb_env');
    assert.equal(token({ 'data-dir': dataDir }), 'urnb_from-the-file-0123456789abcdefghijklmnop');
    assert.equal(token({}, { URNBASE_DATA_DIR: dataDir }), 'urnb_from-the-file-0123456789abcdefghijklmnop');
    assert.equal(token({ 'data-dir': join(root, 'none') }), undefined);
  });

  it('reads the file only for a server on this machine: the admin secret does not go to another host', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://127.0.0.2:9000/', 'http://localhost:8080', 'http://[::1]:8080']) {
      assert.equal(token({ url, 'data-dir': dataDir }), 'urnb_from-the-file-0123456789abcdefghijklmnop', url);
    }
    for (const url of ['http://192.0.2.1:8080', 'https://catalog.example.com', 'http://localhost.example.com']) {
      assert.equal(token({ url, 'data-dir': dataDir }), undefined, url);
      assert.equal(token({ url, 'data-dir': dataDir, token: 'urnb_flag' }), 'urnb_flag', url);
    }
  });

  it('says which URL setting is wrong', () => {
    assert.throws(
      () => clientFor('properties list', {}, { URNBASE_URL: '127.0.0.1:8080' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === 'Invalid URNBASE_URL "127.0.0.1:8080": expected a URL such as http://127.0.0.1:8080; try urnbase properties list --help',
    );
  });
});
