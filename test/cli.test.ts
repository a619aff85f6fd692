import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

describe('urnbase serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stops with a one-line error and exit code 2 on a bad option', () => {
    const run = spawnSync(process.execPath, [MAIN, 'serve', '--port', 'nope'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, 'urnbase: Invalid --port "nope": expected a port number from 0 to 65535; try urnbase serve --help\n');
  });

  it('stops with exit code 2 on an unknown command', () => {
    const run = spawnSync(process.execPath, [MAIN, 'srve'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, 'urnbase: unknown command "srve"; try urnbase --help\n');
  });

  it('serves /health on the embedded store, keeps data across restarts, and exits on SIGTERM', async () => {
    const token = 'urnb_test-admin-token-0123456789abcdefghijklmnop';
    const port = 20000 + Math.floor(Math.random() * 20000);
    const base = `http://127.0.0.1:${port}`;
    const urn = encodeURIComponent('urn:li:tag:restart');
    const start = async () => {
      const child = spawn(process.execPath, [MAIN, 'serve', '--log-level', 'warn'], {
        env: { ...process.env, URNBASE_PORT: String(port), URNBASE_DATA_DIR: dir, URNBASE_ADMIN_TOKEN: token },
        stdio: 'ignore',
      });
      for (let i = 0; i < 100; i++) {
        const ok = await fetch(`${base}/health`).then((r) => r.status === 200, () => false);
        if (ok) return child;
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill('SIGKILL');
      throw new Error('server did not start');
    };
    const stop = (child: ReturnType<typeof spawn>) =>
      new Promise<number | null>((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });

    const first = await start();
    const health = await fetch(`${base}/health`);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const write = await fetch(`${base}/openapi/v2/entity/tag/${urn}/tagProperties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'restart' }),
    });
    assert.equal(write.status, 200);
    assert.equal(await stop(first), 0);

    const second = await start();
    const anonymous = await fetch(`${base}/openapi/v2/entity/tag/${urn}/tagProperties`);
    assert.equal(anonymous.status, 401, 'auth is on by default');
    const read = await fetch(`${base}/openapi/v2/entity/tag/${urn}/tagProperties`, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(await read.json(), { value: { name: 'restart' } });
    assert.equal(await stop(second), 0);
  });
});
