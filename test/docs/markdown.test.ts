import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anchorsOf, cliInvocations, expectedStatus, guideCatalog, localLinks, shellBlocks, type ShellBlock } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('reading the examples out of the docs', () => {
  it('finds the sh blocks, with their lines, and which are marked not to run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnbase-md-'));
    try {
      const file = join(dir, 'guide.md');
      writeFileSync(file, ['# Guide', '```sh', 'curl -s x', '```', '', '<!-- docs-check: not run (starts a server) -->', '```sh', 'npx urnbase serve --port 1', '```', '```yaml', 'a: 1', '```'].join('\n'));
      assert.deepEqual(shellBlocks(file), [
        { file, line: 3, code: 'curl -s x', notRun: false },
        { file, line: 8, code: 'npx urnbase serve --port 1', notRun: true },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the expected status from the comment after a command, across its continuation and body lines', () => {
    const lines = ['curl -s -X POST x \\', "  -d '{", '    \"a\": 1', "}'", '# → 409 {"error":"Conflict"}', 'curl -s y', '# {"value":1}', 'curl -s z', 'echo next'];
    assert.equal(expectedStatus(lines, 0), 409);
    assert.equal(expectedStatus(lines, 5), undefined); // an output comment without a status: a 2xx
    assert.equal(expectedStatus(lines, 7), undefined); // the next command comes first
  });

  it("finds the fresh catalog a guide starts first, and its data dir", () => {
    const block = (code: string, notRun = true): ShellBlock => ({ file: 'g.md', line: 1, code, notRun });
    assert.equal(guideCatalog([block('npm start -- --data-dir ./data-search   # fresh'), block('curl -s x', false)])?.dataDir, 'data-search');
    assert.equal(guideCatalog([block('npx urnbase serve --data-dir=./data-x')])?.dataDir, 'data-x');
    assert.equal(guideCatalog([block('npm ci && npm start    # builds')])?.dataDir, 'data'); // the default
    assert.equal(guideCatalog([block('curl -s x', false)]), undefined); // runs at once: no catalog of its own
    assert.equal(guideCatalog([block('npx urnbase token list')]), undefined); // starts no server
  });

  it('names the subcommand and flags of each urnbase command line', () => {
    const code = ['npm start -- --host 0.0.0.0 --log-level warn', 'URNBASE_X=1 npx urnbase token create --name ci \\', '  --role editor   # a comment --not-a-flag', 'node dist/src/main.js export --data-dir=/x -o f'].join('\n');
    assert.deepEqual(cliInvocations(code), [
      { words: ['serve'], flags: ['--host', '--log-level'], text: 'npm start -- --host 0.0.0.0 --log-level warn' },
      { words: ['token', 'create'], flags: ['--name', '--role'], text: 'URNBASE_X=1 npx urnbase token create --name ci  --role editor' },
      { words: ['export'], flags: ['--data-dir'], text: 'node dist/src/main.js export --data-dir=/x -o f' },
    ]);
  });
});

describe("the house's documents", () => {
  // A newcomer reads the README whole and the design overview in one sitting (issue 37);
  // detail goes to the guides and to docs/design/.
  it('keeps README.md within 12 KiB and docs/DESIGN.md within 15 KiB', () => {
    assert.ok(statSync(join(ROOT, 'README.md')).size <= 12_288, `README.md is ${statSync(join(ROOT, 'README.md')).size} bytes`);
    assert.ok(statSync(join(ROOT, 'docs/DESIGN.md')).size <= 15_360, `docs/DESIGN.md is ${statSync(join(ROOT, 'docs/DESIGN.md')).size} bytes`);
  });

  const design = join(ROOT, 'docs/design');
  const documents = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), ...readdirSync(design).map((f) => `docs/design/${f}`)];

  it('links every deep dive of docs/design/ from the overview', () => {
    const overview = readFileSync(join(ROOT, 'docs/DESIGN.md'), 'utf8');
    const unlinked = readdirSync(design).filter((f) => !overview.includes(`](design/${f})`));
    assert.deepEqual(unlinked, []);
  });

  it('has no link to a file or heading that is not there', () => {
    const broken: string[] = [];
    for (const document of documents) {
      const from = join(ROOT, document);
      for (const link of localLinks(readFileSync(from, 'utf8'))) {
        const target = link.target === '' ? from : join(dirname(from), link.target);
        const where = `${document}:${link.line}: ${link.target}${link.anchor ? `#${link.anchor}` : ''}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (link.anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(link.anchor)) broken.push(`${where} (no such heading in ${relative(ROOT, target)})`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
