import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PG_ADMIN_URL } from '../pg.js';

/**
 * A smoke run of bench/ingest.ts (a few tables in both modes): it loads, reads every aspect back
 * equal to what it sent, runs its floor and exits 0. On PostgreSQL too with URNBASE_TEST_POSTGRES=1.
 */

const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/ingest.js'); // dist/bench/ingest.js
const TABLES = 20;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The bench's databases on the tests' server (its URL names a database: the server is what comes before).
  const env = { ...process.env, URNBASE_BENCH_POSTGRES: PG_ADMIN_URL.replace(/\/[^/]*$/, '') };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH, '--quick', '--tables', String(TABLES), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function smoke(args: string[]): Promise<void> {
  const { code, stdout, stderr } = await run(args);
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, new RegExp(`verified: ${TABLES * 10 * 2} aspects read back equal to what was sent \\(2 mode\\(s\\) × ${TABLES * 10}\\)`));
  assert.equal(stdout.match(/non-2xx answers: 0/g)?.length, 2, stdout);
  // The floor wrote the load's rows: each table's ten aspect rows (nine versioned, and the key aspect) among them.
  assert.match(stdout, /storage floor .* 10 tables a transaction:\n {2}rows: aspects 200, /);
  assert.doesNotMatch(stdout, /!!!|FAILED/);
}

describe('bench/ingest.js', { timeout: 60_000 }, () => {
  it('loads a few tables through Rest.li and v3 on SQLite, verifies every aspect and exits 0', () => smoke([]));
  it('does the same on PostgreSQL', { skip: process.env.URNBASE_TEST_POSTGRES !== '1' && 'URNBASE_TEST_POSTGRES is not 1' }, () => smoke(['--postgres']));
});
