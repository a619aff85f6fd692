import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliInvocations, expectedStatus, shellBlocks } from './markdown.js';

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

  it('names the subcommand and flags of each urnbase command line', () => {
    const code = ['npm start -- --host 0.0.0.0 --log-level warn', 'URNBASE_X=1 npx urnbase token create --name ci \\', '  --role editor   # a comment --not-a-flag', 'node dist/src/main.js export --data-dir=/x -o f'].join('\n');
    assert.deepEqual(cliInvocations(code), [
      { words: ['serve'], flags: ['--host', '--log-level'], text: 'npm start -- --host 0.0.0.0 --log-level warn' },
      { words: ['token', 'create'], flags: ['--name', '--role'], text: 'URNBASE_X=1 npx urnbase token create --name ci  --role editor' },
      { words: ['export'], flags: ['--data-dir'], text: 'node dist/src/main.js export --data-dir=/x -o f' },
    ]);
  });
});
