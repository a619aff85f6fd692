import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../pg.js';
import { startServer } from '../server-process.js';
import { cliInvocations, expectedStatus, guideCatalog, sectionHeadings, shellBlocks, type ShellBlock } from './markdown.js';

/**
 * The docs cannot rot: each guide's shell examples run in order, as one script, as a reader
 * following the sections would run them. Each guide runs on a fresh catalog of its own, never on
 * what another guide left (api.md deletes `sales.orders`, which search.md counts on): a guide with
 * examples opens ("Before you start", the README's quickstart) by starting `urnbase serve` on its
 * own data dir, and the test starts a fresh server on that data dir, in a fresh folder (on
 * PostgreSQL with URNBASE_TEST_POSTGRES=1: a fresh database, which the script's store commands
 * reach through URNBASE_DATABASE_URL). Every curl must answer 2xx, or the status its `# → NNN`
 * comment names; every other command must succeed. Blocks marked `docs-check: not run` (they
 * install, start servers, or need other machines) have each urnbase command's flags checked
 * against that command's --help instead.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/main.js');
const GUIDES = ['README.md', 'docs/api.md', 'docs/structured-properties.md', 'docs/metadata-tests.md', 'docs/forms.md', 'docs/search.md', 'docs/operations.md', 'docs/performance.md', 'docs/reliability.md', 'docs/console.md'];
const onPostgres = process.env.URNBASE_TEST_POSTGRES === '1';

// The reader's server listens on 8080; the test's on a free port, swapped in everywhere. The
// store commands (token, export, tests run) reach the server's own store: its data dir on SQLite,
// its database on PostgreSQL.
const PRELUDE = (port: number, databaseUrl: string | undefined) => `set -e -o pipefail
export URNBASE_URL=http://127.0.0.1:${port}
unset URNBASE_DATA_DIR URNBASE_TOKEN
${databaseUrl ? `export URNBASE_DATABASE_URL=${JSON.stringify(databaseUrl)}` : 'unset URNBASE_DATABASE_URL'}
curl() { command curl -w "%{stderr}@@status \${BASH_LINENO[0]} %{http_code}\\n" "$@"; }
npx() { if [ "$1" = urnbase ]; then shift; node ${JSON.stringify(MAIN)} "$@"; else command npx "$@"; fi; }
`;

interface ScriptLine {
  text: string;
  where: string;
}

function scriptOf(blocks: ShellBlock[], port: number, databaseUrl: string | undefined): ScriptLine[] {
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

  it('every guide opens with "Before you start" (the README with its quickstart)', () => {
    const openings = GUIDES.map((guide) => `${guide}: ${sectionHeadings(readFileSync(join(ROOT, guide), 'utf8'))[0]}`);
    assert.deepEqual(openings, GUIDES.map((guide) => `${guide}: ${guide === 'README.md' ? 'Quickstart' : 'Before you start'}`));
  });

  it('every guide with examples to run starts a fresh catalog of its own first', () => {
    const problems: string[] = [];
    const owners = new Map<string, string>();
    for (const guide of GUIDES) {
      const blocks = shellBlocks(join(ROOT, guide));
      if (!blocks.some((b) => !b.notRun)) continue;
      const catalog = guideCatalog(blocks);
      if (!catalog) {
        problems.push(`${guide}: its first sh block does not start a server (not run) on a data dir of its own`);
        continue;
      }
      const other = owners.get(catalog.dataDir);
      if (other) problems.push(`${guide}: ${catalog.dataDir} is ${other}'s data dir too`);
      owners.set(catalog.dataDir, guide);
    }
    assert.deepEqual(problems, []);
  });

  for (const guide of GUIDES) {
    const blocks = shellBlocks(join(ROOT, guide)).map((b) => ({ ...b, file: guide }));
    const runnable = blocks.filter((b) => !b.notRun);

    if (runnable.length > 0) it(`${guide}: every example runs as written on a fresh catalog${onPostgres ? ' (PostgreSQL)' : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'urnbase-docs-'));
      const database = onPostgres ? await createTestDatabase() : undefined;
      const dataDir = guideCatalog(blocks)?.dataDir ?? 'data';
      const server = await startServer({
        args: ['--data-dir', join(dir, dataDir), ...(database ? ['--database-url', database.url] : [])],
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
