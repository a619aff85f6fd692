import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, PG_SKIP_MESSAGE, postgresAvailable } from '../pg.js';
import { startServer } from '../server-process.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const TOKEN = 'urnb_beside-the-server-admin-token-0123456789ab';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const TEST = 'urn:li:test:described';
const DEFINITION = {
  on: { types: ['dataset'] },
  rules: [{ property: 'datasetProperties.description', operator: 'exists' }],
  actions: { failing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:NeedsDescription'] } }] },
};

/** `urnbase tests run …` as a process, beside the server (async: the server keeps answering meanwhile). */
function testsRun(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'tests', 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * What `urnbase tests run --help` says: a server may keep serving the store meanwhile. The server
 * is started with its own test runs off, so whatever results appear were pushed by the CLI.
 */
async function besideTheServer(store: string[]): Promise<void> {
  const server = await startServer({ args: [...store, '--tests-interval', '0', '--tests-on-change', 'false', '--log-level', 'warn'], env: { URNBASE_ADMIN_TOKEN: TOKEN }, capture: true });
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.base}/openapi/v2/entity/${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { value?: unknown } };
    };
    const dataset = `dataset/${encodeURIComponent(DATASET)}`;
    assert.equal((await call('POST', `${dataset}/datasetProperties`, { name: 'orders' })).status, 200);
    const info = { name: 'Described', category: 'Documentation', definition: { type: 'JSON', json: JSON.stringify(DEFINITION) } };
    assert.equal((await call('POST', `test/${encodeURIComponent(TEST)}/testInfo`, info)).status, 200);
    assert.equal((await call('GET', `${dataset}/globalTags`)).status, 404);

    const run = await testsRun(['--push', '--workers', '0', ...store]);
    assert.deepEqual([run.code, run.stderr], [0, '']);
    assert.equal(run.stdout.split('\n')[0], `${TEST}  Described  selected 1  passing 0  failing 1`);
    assert.equal(run.stdout.split('\n')[2], 'results pushed');

    // The running server answers what the CLI wrote beside it, with no restart.
    assert.deepEqual((await call('GET', `${dataset}/globalTags`)).body.value, { tags: [{ tag: 'urn:li:tag:NeedsDescription' }] });
    const results = (await call('GET', `${dataset}/testResults`)).body.value as { passing: unknown[]; failing: Array<{ test: string }> };
    assert.deepEqual([results.passing, results.failing.map((f) => f.test)], [[], [TEST]]);
    assert.equal((await fetch(`${server.base}/health`)).status, 200);
  } finally {
    await server.stop();
  }
  assert.doesNotMatch(server.output(), /"level":(50|60)/, 'no error in the server log');
}

describe('urnbase tests run --push while a server serves the same store', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-beside-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('on SQLite: the server keeps serving and answers the pushed results and actions at once', async () => {
    await besideTheServer(['--data-dir', join(root, 'data')]);
  });
});

describe('urnbase tests run --push while a server serves the same PostgreSQL database', { skip: (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE }, () => {
  it('the server keeps serving and answers the pushed results and actions at once', async () => {
    const database = await createTestDatabase();
    try {
      await besideTheServer(['--database-url', database.url]);
    } finally {
      await database.drop();
    }
  });
});
