import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

async function start(dir: string, port: number, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--auth', 'false', '--log-level', 'warn', '--port', String(port), '--data-dir', dir, ...extra], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 150; i++) {
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** A batch of `n` datasets for POST /openapi/v2/entity/dataset. */
function batch(n: number): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,drain.t${i},PROD)`,
      aspects: { datasetProperties: { value: { name: `t${i}`, description: 'written while the server drains' } } },
    })),
  );
}

describe('urnbase serve on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-drain-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes a request in flight (2xx), refuses new connections, closes the store and exits 0', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = await start(dir, port);
    const exit = exited(child);
    const body = batch(2000);
    // Half the body goes before the signal, the rest after: the request is surely in flight.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/openapi/v2/entity/dataset', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, body.length / 2));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(async () => {
          // The listener is closed while the request is still being received.
          await assert.rejects(fetch(`http://127.0.0.1:${port}/health`));
          req.end(body.slice(body.length / 2));
        }, 300);
      }, 200);
    });
    const { status, text } = await answer;
    // 202: batches default to async=true (DataHub's default); urnbase acknowledges only committed writes.
    assert.equal(status, 202, text);
    assert.equal(JSON.parse(text).length, 2000);
    assert.equal(await exit, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`));

    // What the drained request wrote was committed and the store closed cleanly.
    const port2 = port + 1;
    const again = await start(dir, port2);
    try {
      const res = await fetch(`http://127.0.0.1:${port2}/openapi/v2/entity/dataset/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:hive,drain.t1999,PROD)')}/datasetProperties`);
      assert.equal(res.status, 200);
    } finally {
      const stopped = exited(again);
      again.kill('SIGTERM');
      assert.equal(await stopped, 0);
    }
  });

  it('cuts off requests still running after --shutdown-grace and exits 1', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = await start(dir, port, ['--shutdown-grace', '500ms']);
    const exit = exited(child);
    const body = batch(10);
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/openapi/v2/entity/dataset', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const failed = new Promise<Error>((resolve) => req.on('error', resolve));
    // Never finished: the request outlives the grace.
    req.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    child.kill('SIGTERM');
    assert.equal(await exit, 1);
    assert.ok(Date.now() - started >= 400, 'waited for the grace');
    assert.match((await failed).message, /socket hang up|ECONNRESET/);
  });
});
