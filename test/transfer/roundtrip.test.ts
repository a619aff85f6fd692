import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCommand } from '../../src/cli/transfer.js';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, enc, list, V2, write } from '../search/fixtures.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const DS = datasetUrn('transfer.orders');
const DS2 = datasetUrn('transfer.customers');

function urnbase(...args: string[]) {
  const env = { ...process.env };
  delete env.URNBASE_DATABASE_URL;
  delete env.URNBASE_DATA_DIR;
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env });
}

/** The lines of an export without its header (whose only varying field is the time). */
function body(file: string): string[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(1);
}

describe('urnbase export and import', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-transfer-'));
  const source = join(root, 'source');
  const file = join(root, 'catalog.ndjson');
  let secret = '';
  after(() => rmSync(root, { recursive: true, force: true }));

  before(async () => {
    const t = await testApp({ dataDir: source }, { sqlite: true });
    await write(t, 'dataset', DS, 'datasetProperties', { name: 'orders', description: 'first words' });
    await write(t, 'dataset', DS, 'datasetProperties', { name: 'orders', description: 'second words' });
    await write(t, 'dataset', DS, 'datasetProperties', { name: 'orders', description: 'every order ever placed' });
    await write(t, 'dataset', DS, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] });
    await write(t, 'dataset', DS2, 'datasetProperties', { name: 'customers', description: 'who buys' });
    secret = (await t.services.tokens.create({ name: 'ci', role: 'editor' }, 'urn:li:corpuser:admin')).token;
    await t.app.close();
  });

  it('exports a header, every version oldest first, and an end record with the counts', () => {
    const run = urnbase('export', '--data-dir', source, '-o', file);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^exported \d+ aspects \(\d+ versions\) of \d+ entities from .* in \d+\.\d s\n$/);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].format, 'urnbase-export');
    assert.equal(lines[0].formatVersion, 1);
    assert.ok(!Number.isNaN(Date.parse(lines[0].exportedAt)));
    const versions = lines.filter((l) => l.kind === 'aspect' && l.urn === DS && l.aspect === 'datasetProperties');
    assert.deepEqual(versions.map((v) => v.systemMetadata.version), ['1', '2', '3']);
    assert.deepEqual(versions.map((v) => v.value.description), ['first words', 'second words', 'every order ever placed']);
    assert.equal(lines.filter((l) => l.kind === 'token').length, 0);
    const end = lines[lines.length - 1];
    assert.equal(end.kind, 'end');
    assert.equal(end.versions, lines.filter((l) => l.kind === 'aspect').length);
    assert.equal(end.tokens, 0);
  });

  it('writes to stdout without -o', () => {
    const run = urnbase('export', '--data-dir', source);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split('\n').slice(1), body(file));
  });

  describe('into a fresh data dir', () => {
    const target = join(root, 'target');
    const again = join(root, 'again.ndjson');
    let imported: TestApp;
    let original: TestApp;
    before(async () => {
      const run = urnbase('import', '-f', file, '--data-dir', target);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^imported \d+ aspects \(\d+ versions\) of \d+ entities, 0 tokens into .*target in \d+\.\d s\n$/);
      imported = await testApp({ dataDir: target }, { sqlite: true });
      original = await testApp({ dataDir: source }, { sqlite: true });
    });
    after(async () => {
      await imported.app.close();
      await original.app.close();
    });

    it('exports again line for line as the original', () => {
      const run = urnbase('export', '--data-dir', target, '-o', again);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(body(again), body(file));
    });

    it('answers every version of an aspect with the same value and system metadata', async () => {
      for (const version of [0, 1, 2, 3]) {
        const url = `${V2}/dataset/${enc(DS)}/datasetProperties?version=${version}&systemMetadata=true`;
        const [a, b] = [await original.call({ method: 'GET', url }), await imported.call({ method: 'GET', url })];
        assert.equal(b.status, 200);
        assert.deepEqual(b.body, a.body);
      }
    });

    it('answers whole entities the same', async () => {
      const url = `${V2}/dataset/${enc(DS)}?systemMetadata=true`;
      assert.deepEqual((await imported.call({ method: 'GET', url })).body, (await original.call({ method: 'GET', url })).body);
    });

    it('finds the same entities by search', async () => {
      for (const query of ['order', 'tags:pii', '*']) {
        const [a, b] = [await list(original, 'dataset', { query }), await list(imported, 'dataset', { query })];
        assert.equal(b.status, 200);
        assert.deepEqual(b.body, a.body);
      }
      assert.deepEqual((await list(imported, 'dataset', { query: 'order' })).body.results.map((r: { urn: string }) => r.urn), [DS]);
    });

    it('writes no change-log events for the replay', async () => {
      assert.deepEqual(await imported.services.store.readEvents(0, 10), []);
    });

    it('refuses a store that already holds a catalog, exit 2, and leaves it as it was', () => {
      const run = urnbase('import', '-f', file, '--data-dir', target);
      assert.equal(run.status, 2);
      assert.equal(
        run.stderr,
        'urnbase: the target store already holds a catalog: import into an empty store, or pass --replace to delete what it holds first\n',
      );
    });
  });

  describe('tokens', () => {
    const withTokens = join(root, 'with-tokens.ndjson');

    it('are exported only with --include-tokens, as hashes, never secrets', () => {
      const run = urnbase('export', '--data-dir', source, '--include-tokens', '-o', withTokens);
      assert.equal(run.status, 0, run.stderr);
      const text = readFileSync(withTokens, 'utf8');
      assert.ok(!text.includes(secret));
      const tokens = text.trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => l.kind === 'token');
      assert.equal(tokens.length, 1);
      assert.equal(tokens[0].name, 'ci');
      assert.match(tokens[0].hash, /^[0-9a-f]{64}$/);
    });

    it('are imported only with --include-tokens, and then authenticate', async () => {
      const without = join(root, 'no-tokens');
      const skipped = urnbase('import', '-f', withTokens, '--data-dir', without);
      assert.equal(skipped.status, 0, skipped.stderr);
      assert.match(skipped.stdout, /, 0 tokens, 1 tokens skipped \(pass --include-tokens\) into /);

      const withDir = join(root, 'with-tokens');
      const run = urnbase('import', '-f', withTokens, '--data-dir', withDir, '--include-tokens');
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /, 1 tokens into /);
      const t = await testApp({ dataDir: withDir, auth: true, adminToken: 'x'.repeat(40) }, { sqlite: true });
      try {
        const res = await t.call({ method: 'GET', url: `${V2}/dataset/${enc(DS)}/globalTags`, headers: { authorization: `Bearer ${secret}` } });
        assert.equal(res.status, 200);
      } finally {
        await t.app.close();
      }
    });
  });

  it('draws a progress bar of versions when given a terminal, then clears it for the summary', async () => {
    const drawn: string[] = [];
    const said: string[] = [];
    const versions = body(file).filter((l) => l.startsWith('{"kind":"aspect"')).length;
    const code = await importCommand(['-f', file, '--data-dir', join(root, 'progress')], (line) => said.push(line), (text) => drawn.push(text));
    assert.equal(code, 0);
    assert.match(drawn.at(-2) ?? '', new RegExp(`^\\r\\[#{20}\\] 100% ${versions}/${versions} versions, [\\d,]+/s$`));
    assert.equal(drawn.at(-1), '\r\x1b[K');
    assert.equal(said.length, 1);
    assert.match(said[0], new RegExp(`^imported \\d+ aspects \\(${versions} versions\\) of \\d+ entities, 0 tokens into `));
  });

  it('--replace deletes what the store holds first', async () => {
    const dir = join(root, 'replaced');
    const t = await testApp({ dataDir: dir }, { sqlite: true });
    await write(t, 'dataset', datasetUrn('transfer.stale'), 'datasetProperties', { name: 'stale' });
    await t.app.close();
    const run = urnbase('import', '-f', file, '--data-dir', dir, '--replace');
    assert.equal(run.status, 0, run.stderr);
    const again = join(root, 'replaced.ndjson');
    assert.equal(urnbase('export', '--data-dir', dir, '-o', again).status, 0);
    assert.deepEqual(body(again), body(file));
  });

  describe('bad input: exit 2, a message naming the line, nothing imported', () => {
    const lines = () => readFileSync(file, 'utf8').trimEnd().split('\n');
    const cases: Array<[string, () => string[], string]> = [
      ['a line that is not JSON', () => lines().map((l, i) => (i === 3 ? '{"kind": "aspect",' : l)), 'line 4: not JSON ('],
      ['a file that is not an export', () => ['{"hello": 1}'], 'line 1: not an urnbase export (the first line must be a header with "format": "urnbase-export")'],
      ['another format version', () => [lines()[0].replace('"formatVersion":1', '"formatVersion":2'), ...lines().slice(1)], 'line 1: format version 2 is not supported (this urnbase reads version 1)'],
      ['an unknown aspect', () => lines().map((l, i) => (i === 2 ? l.replace(/"aspect":"[^"]+"/, '"aspect":"nonsense"') : l)), 'line 3: unknown aspect "nonsense" for entity type'],
      ['a record without system metadata', () => lines().map((l, i) => (i === 2 ? l.replace(/"systemMetadata":.*\}$/, '"systemMetadata":null}') : l)), 'line 3: systemMetadata must be an object'],
      ['versions out of order', () => { const l = lines(); const i = l.findIndex((x) => x.includes('"second words"')); [l[i], l[i + 1]] = [l[i + 1], l[i]]; return l; }, 'follows version 3: versions must go oldest to newest'],
      ['wrong counts in the end record', () => lines().map((l, i, all) => (i === all.length - 1 ? l.replace(/"versions":\d+/, '"versions":1') : l)), 'the end record counts 1 versions, the file holds'],
      ['a truncated file', () => lines().slice(0, -1), 'the file ends without an end record (truncated?)'],
    ];
    for (const [name, make, message] of cases) {
      it(`refuses ${name}`, async () => {
        const bad = join(root, 'bad.ndjson');
        writeFileSync(bad, `${make().join('\n')}\n`);
        const dir = join(root, `bad-${name.replace(/\W+/g, '-')}`);
        const run = urnbase('import', '-f', bad, '--data-dir', dir);
        assert.equal(run.status, 2, run.stderr);
        assert.ok(run.stderr.startsWith(`urnbase: ${bad} `), run.stderr);
        assert.ok(run.stderr.includes(message), run.stderr);
        assert.ok(run.stderr.endsWith('; nothing was imported\n'), run.stderr);
        // Checked before the store was opened: not even an empty data dir is left behind.
        assert.equal(existsSync(dir), false);
      });
    }

    it('refuses an aspect whose versions are not on consecutive lines, and removes what it wrote', async () => {
      const l = lines();
      const first = l.findIndex((x) => x.includes('"first words"'));
      const moved = l[first + 2];
      const rest = [...l.slice(0, first + 2), ...l.slice(first + 3)];
      const endAt = rest.length - 1;
      // The end record counts the split aspect twice, as a reader of the file would.
      const end = JSON.parse(rest[endAt]);
      end.aspects++;
      const bad = join(root, 'split.ndjson');
      writeFileSync(bad, `${[...rest.slice(0, endAt), moved.replace('"version":"3"', '"version":"4"'), JSON.stringify(end)].join('\n')}\n`);
      const dir = join(root, 'split');
      const run = urnbase('import', '-f', bad, '--data-dir', dir);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /line \d+: datasetProperties of urn:li:dataset:\(urn:li:dataPlatform:hive,transfer\.orders,PROD\) appeared earlier in the file/);
      const t = await testApp({ dataDir: dir }, { sqlite: true });
      try {
        assert.equal((await t.call({ method: 'GET', url: `${V2}/dataset/${enc(DS)}/datasetProperties` })).status, 404);
      } finally {
        await t.app.close();
      }
    });

    it('refuses an import without -f (exit 2)', () => {
      const run = urnbase('import', '--data-dir', join(root, 'x'));
      assert.equal(run.status, 2);
      assert.equal(run.stderr, 'urnbase: import needs -f FILE; try urnbase import --help\n');
    });

    it('refuses to export a data dir that holds no catalog (exit 2)', () => {
      const run = urnbase('export', '--data-dir', join(root, 'nothing-here'));
      assert.equal(run.status, 2);
      assert.equal(run.stderr, `urnbase: no catalog in ${join(root, 'nothing-here')} (no urnbase.db there); urnbase serve or urnbase migrate creates one\n`);
    });
  });
});
