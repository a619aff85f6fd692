import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));

// The build of the project under test counts its runs and writes what tsc -b would: the stamp and the bin.
const BUILD = `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.txt', 'built\\n');
if (process.env.FAIL_BUILD) process.exit(3);
mkdirSync('dist/src', { recursive: true });
writeFileSync('dist/tsconfig.tsbuildinfo', '{}');
writeFileSync('dist/src/main.js', '');
`;

describe('npm start builds only what changed, then runs the CLI (scripts/start.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-prestart-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, type: 'module', scripts: { build: 'node build.mjs' } }));
  writeFileSync(join(dir, 'build.mjs'), BUILD);
  writeFileSync(join(dir, 'tsconfig.json'), '{}');
  for (const sub of ['src/cli', 'test', 'bench']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'src/cli/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src/cli/b.ts'), 'export const b = 1;\n');

  const builds = () => readFileSync(join(dir, 'builds.txt'), 'utf8').split('\n').length - 1;
  const start = (env: Record<string, string> = {}, args: string[] = []) =>
    spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  /** Everything as it was a minute ago, the stamp from 30 s ago: the next change is newer than the build. */
  const settle = () => {
    const past = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const walk = (path: string) => {
      if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
      utimesSync(path, past(60), past(60));
    };
    for (const input of ['tsconfig.json', 'package.json', 'src', 'test', 'bench']) walk(join(dir, input));
    utimesSync(join(dir, 'dist/tsconfig.tsbuildinfo'), past(30), past(30));
  };

  it('builds when nothing was built yet, and stamps the build with its start', () => {
    const before = Date.now();
    assert.equal(start().status, 0);
    assert.equal(builds(), 1);
    const stamp = statSync(join(dir, 'dist/tsconfig.tsbuildinfo')).mtimeMs;
    assert.ok(stamp >= before - 1000 && stamp <= Date.now(), 'the stamp is the time the build started');
  });

  it('does not build when nothing changed', () => {
    settle();
    assert.equal(start().status, 0);
    assert.equal(builds(), 1);
  });

  it('builds after a source file was edited', () => {
    writeFileSync(join(dir, 'src/cli/a.ts'), 'export const a = 2;\n');
    assert.equal(start().status, 0);
    assert.equal(builds(), 2);
    settle();
    assert.equal(start().status, 0);
    assert.equal(builds(), 2);
  });

  it('builds after a file was removed from a directory, or tsconfig.json changed', () => {
    unlinkSync(join(dir, 'src/cli/b.ts'));
    assert.equal(start().status, 0);
    assert.equal(builds(), 3);
    settle();
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{}}');
    assert.equal(start().status, 0);
    assert.equal(builds(), 4);
  });

  it('builds when the bin is missing', () => {
    settle();
    unlinkSync(join(dir, 'dist/src/main.js'));
    assert.equal(start().status, 0);
    assert.equal(builds(), 5);
  });

  it('stops with the build exit code when the build fails, and tries again next time', () => {
    settle();
    const stamp = statSync(join(dir, 'dist/tsconfig.tsbuildinfo')).mtimeMs;
    writeFileSync(join(dir, 'test/c.ts'), 'export const c = 1;\n');
    assert.equal(start({ FAIL_BUILD: '1' }).status, 3);
    assert.equal(statSync(join(dir, 'dist/tsconfig.tsbuildinfo')).mtimeMs, stamp, 'no stamp for a failed build');
    assert.equal(start().status, 0);
    assert.equal(builds(), 7);
  });

  it('runs the built CLI in the same process with the arguments it was given', () => {
    settle();
    writeFileSync(join(dir, 'dist/src/main.js'), 'console.log(JSON.stringify({ argv: process.argv.slice(2), pid: process.pid }));\n');
    const run = start({}, ['serve', '--port', '9000']);
    assert.equal(run.status, 0, run.stderr);
    const { argv, pid } = JSON.parse(run.stdout) as { argv: string[]; pid: number };
    assert.deepEqual(argv, ['serve', '--port', '9000']);
    assert.equal(pid, run.pid, 'no second Node process');
    assert.equal(builds(), 7);
  });
});

describe('npm start says what it builds, a line per step with its time (scripts/start.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-prestart-steps-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // The project's own build script, run by stand-ins for tsc and vite found where npm puts them.
  const script = 'tsc -b tsconfig.json && chmod +x dist/src/main.js && tsc -p console/tsconfig.json && vite build --config console/vite.config.ts';
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, type: 'module', scripts: { build: script } }));
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  const tool = (name: string, body: string) => {
    writeFileSync(join(dir, 'node_modules/.bin', name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, 'node_modules/.bin', name), 0o755);
  };
  tool('tsc', 'if [ "$1" = -b ]; then mkdir -p dist/src && echo {} > dist/tsconfig.tsbuildinfo && touch dist/src/main.js; fi');
  tool('vite', 'echo "vite: 3 modules transformed"; exit ${FAIL_VITE:-0}');
  const start = (env: Record<string, string> = {}) => spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  const timed = (text: string) => text.replace(/in \d+\.\d s/g, 'in N s');

  it('off a terminal: the step number, the total, what it does, then its time (the chmod is no step of its own)', () => {
    const run = start();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(
      timed(run.stderr),
      [
        'urnbase: building (a first build takes a minute or two; later starts rebuild only what changed)',
        '[1/3] compiling the server (tsc) …',
        '[1/3] compiling the server (tsc): done in N s',
        '[2/3] type-checking the console (tsc) …',
        '[2/3] type-checking the console (tsc): done in N s',
        '[3/3] bundling the console (vite) …',
        '[3/3] bundling the console (vite): done in N s',
        'vite: 3 modules transformed',
        'urnbase: built in N s',
        '',
      ].join('\n'),
    );
    assert.equal(statSync(join(dir, 'dist/src/main.js')).mode & 0o111, 0o111, 'the chmod step ran');
  });

  it('stops at a failing step with its exit code, after saying which step failed and showing its output', () => {
    unlinkSync(join(dir, 'dist/src/main.js'));
    const run = start({ FAIL_VITE: '4' });
    assert.equal(run.status, 4);
    const lines = timed(run.stderr).split('\n');
    assert.deepEqual(lines.slice(-3), ['[3/3] bundling the console (vite): FAILED in N s', 'vite: 3 modules transformed', '']);
  });
});
