import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/** The project directory (this file is dist/test/cli/invocation.test.js). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'src', 'main.js');

// npm does not link a project's own bin into node_modules/.bin, so a bare `urnbase` is not on the
// PATH after `npm ci`; `npx urnbase` finds the bin in the project's package.json.
describe('invoking the CLI as documented', () => {
  it('package.json maps urnbase to the built main, which the build makes executable, with a node shebang', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.deepEqual(pkg.bin, { urnbase: 'dist/src/main.js' });
    assert.equal(readFileSync(BIN, 'utf8').split('\n')[0], '#!/usr/bin/env node');
    assert.equal(statSync(BIN).mode & 0o111, 0o111, 'executable by everyone who may read it');
  });

  it('npx urnbase --help runs the project bin in the project directory', () => {
    const run = spawnSync('npx', ['urnbase', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^usage: urnbase <command> \[options\]\n/);
  });

  it('npx urnbase works below the project directory too, passing arguments and exit codes through', () => {
    const run = spawnSync('npx', ['urnbase', 'token', 'list', '--bogus'], { cwd: join(ROOT, 'src'), encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, "urnbase: Unknown option '--bogus'; try urnbase token list --help\n");
  });

  it('npm start -- <flags> passes them to serve', () => {
    const run = spawnSync('npm', ['start', '--silent', '--', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^usage: urnbase serve \[options\]\n/);
  });

  it('node dist/src/main.js and the bin itself answer the same', () => {
    const viaNode = spawnSync(process.execPath, [BIN, 'serve', '--help'], { encoding: 'utf8' });
    const direct = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
    assert.equal(viaNode.status, 0);
    assert.equal(direct.status, 0, direct.stderr);
    assert.equal(direct.stdout, viaNode.stdout);
    assert.match(direct.stdout, /^usage: urnbase serve \[options\]\n/);
  });
});
