import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../pg.js';
import { startServer } from '../server-process.js';
import { cliInvocations, expectedStatus, shellBlocks, type ShellBlock } from './markdown.js';

/**
 * The docs cannot rot: each guide's shell examples run in order, as one script, against a fresh
 * `urnbase serve` (its own data dir; on PostgreSQL with URNBASE_TEST_POSTGRES=1), as a reader
 * following the sections would run them. Every curl must answer 2xx, or the status its `# → NNN`
 * comment names; every other command must succeed. Blocks marked `docs-check: not run` (they
 * install, start servers, or need other machines) have each urnbase command's flags checked
 * against that command's --help instead.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/main.js');
const GUIDES = ['README.md', 'docs/api.md', 'docs/structured-properties.md', 'docs/metadata-tests.md', 'docs/search.md', 'docs/operations.md', 'docs/performance.md', 'docs/reliability.md'];
const onPostgres = process.env.URNBASE_TEST_POSTGRES === '1';

// The reader's server listens on 8080; the test's on a free port, swapped in everywhere. A reader
// on PostgreSQL has URNBASE_DATABASE_URL set for the commands that work on the store.
const PRELUDE = (port: number, databaseUrl?: string) => `set -e -o pipefail
export URNBASE_URL=http://127.0.0.1:${port}
${databaseUrl ? `export URNBASE_DATABASE_URL=${JSON.stringify(databaseUrl)}` : ''}
curl() { command curl -w "%{stderr}@@status \${BASH_LINENO[0]} %{http_code}\\n" "$@"; }
npx() { if [ "$1" = urnbase ]; then shift; node ${JSON.stringify(MAIN)} "$@"; else command npx "$@"; fi; }
`;

interface ScriptLine {
  text: string;
  where: string;
}

function scriptOf(blocks: ShellBlock[], port: number, databaseUrl?: string): ScriptLine[] {
  const lines: ScriptLine[] = PRELUDE(port, databaseUrl).split('\n').map((text) => ({ text, where: 'prelude' }));
  for (const block of blocks) {
    block.code.split('\n').forEach((text, i) => lines.push({ text: text.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`), where: `${block.file}:${block.line + i}` }));
    lines.push({ text: ': end of block', where: `${block.file}:${block.line}` });
  }
  return lines;
}

function runScript(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the documentation examples', () => {
  it('every guide has examples to check', () => {
    const unchecked = GUIDES.filter((guide) => shellBlocks(join(ROOT, guide)).length === 0);
    assert.deepEqual(unchecked, []);
  });

  for (const guide of GUIDES) {
    const blocks = shellBlocks(join(ROOT, guide)).map((b) => ({ ...b, file: guide }));
    const runnable = blocks.filter((b) => !b.notRun);

    if (runnable.length > 0) it(`${guide}: every example runs as written on a fresh catalog${onPostgres ? ' (PostgreSQL)' : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'urnbase-docs-'));
      const database = onPostgres ? await createTestDatabase() : undefined;
      const server = await startServer({
        args: ['--data-dir', join(dir, 'data'), ...(database ? ['--database-url', database.url] : [])],
        capture: true,
      });
      try {
        const lines = scriptOf(runnable, Number(new URL(server.base).port), database?.url);
        writeFileSync(join(dir, 'script.sh'), lines.map((l) => l.text).join('\n'));
        const run = await runScript(lines.map((l) => l.text).join('\n'), dir);
        const failures: string[] = [];
        if (run.code !== 0) failures.push(`the script stopped with exit code ${run.code}: ${run.stderr.replace(/@@status.*\n/g, '').slice(-1500)}`);
        for (const [, lineText, statusText] of run.stderr.matchAll(/^@@status (\d+) (\d{3})$/gm)) {
          const line = Number(lineText) - 1;
          const expected = expectedStatus(lines.map((l) => l.text), line);
          const status = Number(statusText);
          const ok = expected === undefined ? status >= 200 && status < 300 : status === expected;
          if (!ok) failures.push(`${lines[line].where}: answered ${status}, the docs say ${expected ?? '2xx'}: ${lines[line].text.trim()}`);
        }
        assert.deepEqual(failures, [], `${failures.join('\n')}\n--- stdout ---\n${run.stdout.slice(-3000)}`);
      } finally {
        await server.stop();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    const notRun = blocks.filter((b) => b.notRun).flatMap((b) => cliInvocations(b.code).map((c) => ({ ...c, where: `${b.file}:${b.line}` })));
    if (notRun.length > 0) it(`${guide}: the commands shown but not run name real subcommands and flags`, () => {
      const problems: string[] = [];
      for (const call of notRun) {
        const help = spawnSync(process.execPath, [MAIN, ...call.words, '--help'], { encoding: 'utf8' });
        if (help.status !== 0) {
          problems.push(`${call.where}: \`urnbase ${call.words.join(' ')} --help\` exited ${help.status}: ${call.text}`);
          continue;
        }
        for (const flag of call.flags) if (!new RegExp(`${flag}\\b`).test(help.stdout)) problems.push(`${call.where}: ${flag} is not an option of urnbase ${call.words.join(' ')}: ${call.text}`);
      }
      assert.deepEqual(problems, []);
    });
  }
});
