import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testApp } from '../helpers.js';

/**
 * The served API document passes `redocly lint` with the recommended rules (and the exceptions in
 * redocly.yaml) without a single error or warning. `npm run lint:openapi` runs this file alone.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}

/** Runs the redocly CLI on a file; its JSON report (it exits 1 when there are errors). */
function lint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: Problem[] }> {
  const args = [cli, 'lint', file, '--config', join(root, 'redocly.yaml'), '--format=json', '--max-problems=1000'];
  // Offline and quiet: no telemetry, no update check.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`redocly gave no report (${error?.message ?? 'no error'}):\n${stderr}\n${stdout}`));
      }
    });
  });
}

it('the served API document passes redocly lint without an error or a warning', { timeout: 180_000 }, async () => {
  const t = await testApp();
  const dir = await mkdtemp(join(tmpdir(), 'urnbase-openapi-'));
  try {
    const res = await t.call({ method: 'GET', url: '/openapi/v3/api-docs' });
    assert.equal(res.status, 200);
    const file = join(dir, 'openapi.json');
    await writeFile(file, res.raw);
    const report = await lint(file);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  } finally {
    await rm(dir, { recursive: true, force: true });
    await t.app.close();
  }
});
