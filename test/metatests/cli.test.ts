import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.js';
import { progressLine } from '../../src/cli/progress.js';
import { testsCommand, testsFromYaml } from '../../src/cli/tests.js';
import { YamlFileError } from '../../src/yaml-list.js';
import { Registry } from '../../src/registry/registry.js';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { createTestDatabase, postgresAvailable, PG_SKIP_MESSAGE } from '../pg.js';

const registry = Registry.load();

const EXAMPLE = `
- id: has-owner
  name: Has owner
  category: Governance
  description: Every dataset has an owner
  status: INACTIVE
  schedule: NONE
  definition:
    on:
      types: [dataset]
      conditions:
        property: dataPlatformInstance.platform
        operator: equals
        value: urn:li:dataPlatform:snowflake
    rules:
      and:
        - property: ownership.owners.owner
          operator: exists
    actions:
      passing:
        - type: ADD_TAGS
          params:
            values: [urn:li:tag:Owned]
- urn: urn:li:test:described
  name: Described
  category: Documentation
  definition:
    on: { types: [dataset] }
    rules: [{ property: datasetProperties.description, operator: exists }]
`;

describe('tests YAML (urnbase tests upsert format)', () => {
  it('maps every field to a testInfo, with ACTIVE and DAILY as defaults', () => {
    assert.deepEqual(testsFromYaml(EXAMPLE, 'tests.yaml', registry), [
      {
        urn: 'urn:li:test:has-owner',
        info: {
          name: 'Has owner',
          category: 'Governance',
          description: 'Every dataset has an owner',
          definition: {
            type: 'JSON',
            json: JSON.stringify({
              on: {
                types: ['dataset'],
                conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' },
              },
              rules: { and: [{ property: 'ownership.owners.owner', operator: 'exists' }] },
              actions: { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:Owned'] } }] },
            }),
          },
          status: { mode: 'INACTIVE' },
          schedule: { interval: 'NONE' },
        },
      },
      {
        urn: 'urn:li:test:described',
        info: {
          name: 'Described',
          category: 'Documentation',
          definition: {
            type: 'JSON',
            json: '{"on":{"types":["dataset"]},"rules":[{"property":"datasetProperties.description","operator":"exists"}]}',
          },
          status: { mode: 'ACTIVE' },
          schedule: { interval: 'DAILY' },
        },
      },
    ]);
  });

  const item = (extra: string, definition = 'definition:\n    on: {types: [dataset]}\n    rules: [{property: urn, operator: exists}]') =>
    `- id: a\n  category: c\n  ${extra}\n  ${definition}\n`;
  const bad: Array<[string, string, string]> = [
    [
      'a bad operator in the definition',
      item('name: n', 'definition:\n    on: {types: [dataset]}\n    rules:\n      and:\n        - {property: urn, operator: exists}\n        - {property: urn, operator: eq, value: x}'),
      't.yaml: [0].definition.rules.and[1].operator: unknown operator "eq"',
    ],
    ['a missing name', item('description: d'), 't.yaml: [0].name: is required'],
    ['a definition without rules', item('name: n', 'definition: {on: {types: [dataset]}}'), 't.yaml: [0].definition: must be an object with an "on" clause and a "rules" clause'],
    ['an unknown entity type', item('name: n', 'definition: {on: {types: [datset]}, rules: []}'), 't.yaml: [0].definition.on.types[0]: unknown entity type "datset"'],
    ['a bad status', item('name: n\n  status: on'), 't.yaml: [0].status: expected ACTIVE or INACTIVE'],
    ['an unknown field', item('name: n\n  owner: me'), 't.yaml: [0].owner: unknown field (expected one of id, urn, name, category, description, status, schedule, definition)'],
    ['no id or urn', '- name: n\n  category: c\n  definition: {on: {types: [dataset]}, rules: []}', 't.yaml: [0].id: one of id or urn is required'],
  ];
  for (const [why, text, message] of bad) {
    it(`points at the spot for ${why}`, () => {
      assert.deepEqual(testsFromYaml(text, 't.yaml', registry), [{ error: message }]);
    });
  }

  it('rejects the whole file on a YAML syntax error or a document that is not a list', () => {
    const fails = (text: string, message: string) =>
      assert.throws(() => testsFromYaml(text, 't.yaml', registry), (e: unknown) => e instanceof YamlFileError && e.message === message);
    fails('- id: a\n  name: [unclosed\n', 't.yaml: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1:');
    fails('id: a', 't.yaml: expected a list of tests');
  });
});

describe('urnbase tests upsert', () => {
  let t: TestApp;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-tests-upsert-'));
  before(async () => {
    t = await testApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await t.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upsert = async (file: string) => {
    const lines: string[] = [];
    const code = await testsCommand(['upsert', '-f', file, '--url', url], (line) => lines.push(line));
    return { code, lines };
  };

  it('creates, then reports unchanged (ignoring the server md5), then updated; a bad item is reported and not sent', async () => {
    const file = join(dir, 'tests.yaml');
    const broken = '- id: broken\n  category: c\n  definition: {on: {types: [dataset]}, rules: []}\n';
    writeFileSync(file, EXAMPLE + broken);
    assert.deepEqual(await upsert(file), {
      code: 1,
      lines: ['created   urn:li:test:has-owner', 'created   urn:li:test:described', `error     ${file}: [2].name: is required`],
    });
    assert.equal((await t.call({ method: 'GET', url: `${V2}/test/${enc('urn:li:test:broken')}/testInfo` })).status, 404);

    writeFileSync(file, EXAMPLE);
    assert.deepEqual(await upsert(file), { code: 0, lines: ['unchanged urn:li:test:has-owner', 'unchanged urn:li:test:described'] });

    writeFileSync(file, EXAMPLE.replace('name: Described', 'name: Has a description'));
    assert.deepEqual(await upsert(file), { code: 0, lines: ['unchanged urn:li:test:has-owner', 'updated   urn:li:test:described'] });
    const stored = await t.call({ method: 'GET', url: `${V2}/test/${enc('urn:li:test:described')}/testInfo` });
    assert.equal(stored.body.value.name, 'Has a description');
    assert.match(stored.body.value.definition.md5, /^[0-9a-f]{32}$/);
  });

  it('reports a YAML syntax error with the file and writes nothing', async () => {
    const file = join(dir, 'syntax.yaml');
    writeFileSync(file, '- id: a\n  name: [unclosed\n');
    assert.deepEqual(await upsert(file), {
      code: 1,
      lines: [`error     ${file}: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1:`],
    });
  });
});

describe('urnbase tests run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-tests-run-'));
  const owned = [datasetUrn('run.a', 'snowflake'), datasetUrn('run.b', 'hive')];
  const unowned = datasetUrn('run.c', 'snowflake');

  /** Opens the data dir as the server would, for setting up and checking what a run wrote. */
  const withApp = async <T>(use: (call: (method: 'GET' | 'POST', url: string, payload?: object) => Promise<{ status: number; body: any }>) => Promise<T>) => {
    const { app } = await buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1024 * 1024 });
    try {
      return await use(async (method, url, payload) => {
        const res = await app.inject({ method, url, payload });
        return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
      });
    } finally {
      await app.close();
    }
  };
  const results = (urn: string) =>
    withApp(async (call) => {
      const res = await call('GET', `${V2}/dataset/${enc(urn)}/testResults`);
      if (res.status === 404) return undefined;
      const value = res.body.value as { passing: Array<{ test: string }>; failing: Array<{ test: string }> };
      return { passing: value.passing.map((r) => r.test), failing: value.failing.map((r) => r.test) };
    });

  before(() =>
    withApp(async (call) => {
      const ok = async (url: string, payload: object) => assert.equal((await call('POST', url, payload)).status, 200);
      for (const urn of owned) await ok(`${V2}/dataset/${enc(urn)}/ownership`, { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
      await ok(`${V2}/dataset/${enc(unowned)}/datasetProperties`, { name: 'c', description: 'Unowned' });
      const test = (id: string, name: string, definition: object, schedule: 'DAILY' | 'NONE') =>
        ok(`${V2}/test/${enc(`urn:li:test:${id}`)}/testInfo`, {
          name,
          category: 'Governance',
          definition: { type: 'JSON', json: JSON.stringify(definition) },
          schedule: { interval: schedule },
        });
      await test('owned', 'Has owner', { on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }, 'DAILY');
      // On demand only: a run without --test leaves it out.
      await test(
        'described',
        'Snowflake described',
        {
          on: { types: ['dataset'], conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:snowflake' } },
          rules: [{ property: 'datasetProperties.description', operator: 'exists' }],
        },
        'NONE',
      );
    }),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await testsCommand(['run', '--data-dir', dir, ...argv], (line) => lines.push(line));
    return { code, lines };
  };
  const EVALUATED = /^evaluated 3 entities in \d+\.\ds \([\d,]+\/s\)$/;

  it('summarises the active scheduled tests and writes nothing without --push', async () => {
    const { code, lines } = await run();
    assert.equal(code, 0);
    assert.deepEqual(lines.slice(0, 1), ['urn:li:test:owned  Has owner  selected 3  passing 2  failing 1']);
    assert.match(lines[1], EVALUATED);
    assert.equal(lines.length, 2);
    assert.equal(await results(owned[0]), undefined);
    assert.equal(await results(unowned), undefined);
  });

  it('runs only the tests named with --test (scheduled or not)', async () => {
    const { code, lines } = await run('--test', 'urn:li:test:described', '--test', 'urn:li:test:owned');
    assert.equal(code, 0);
    assert.deepEqual(lines.slice(0, 2), [
      'urn:li:test:described  Snowflake described  selected 2  passing 1  failing 1',
      'urn:li:test:owned  Has owner  selected 3  passing 2  failing 1',
    ]);
    assert.match(lines[2], EVALUATED);
    assert.equal(await results(owned[0]), undefined);
  });

  it('writes testResults with --push', async () => {
    const { code, lines } = await run('--push');
    assert.equal(code, 0);
    assert.equal(lines[0], 'urn:li:test:owned  Has owner  selected 3  passing 2  failing 1');
    assert.match(lines[1], EVALUATED);
    assert.equal(lines[2], 'results pushed');
    assert.deepEqual(await results(owned[0]), { passing: ['urn:li:test:owned'], failing: [] });
    assert.deepEqual(await results(owned[1]), { passing: ['urn:li:test:owned'], failing: [] });
    assert.deepEqual(await results(unowned), { passing: [], failing: ['urn:li:test:owned'] });
  });

  it('stops with exit code 1 on an unknown test, evaluating nothing', async () => {
    assert.deepEqual(await run('--test', 'urn:li:test:nope', '--test', 'urn:li:test:owned'), {
      code: 1,
      lines: ['error     urn:li:test:nope: unknown test'],
    });
  });

  it('is dispatched by urnbase main: summary on stdout, nothing on stderr off a terminal, exit codes', () => {
    const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
    const ok = spawnSync(process.execPath, [main, 'tests', 'run'], { encoding: 'utf8', env: { ...process.env, URNBASE_DATA_DIR: dir } });
    assert.equal(ok.status, 0);
    assert.equal(ok.stderr, '');
    assert.equal(ok.stdout.split('\n')[0], 'urn:li:test:owned  Has owner  selected 3  passing 2  failing 1');
    const unknown = spawnSync(process.execPath, [main, 'tests', 'run', '--data-dir', dir, '--test', 'urn:li:test:nope'], { encoding: 'utf8' });
    assert.deepEqual([unknown.status, unknown.stdout], [1, 'error     urn:li:test:nope: unknown test\n']);
    const usage = spawnSync(process.execPath, [main, 'tests', 'rnu'], { encoding: 'utf8' });
    assert.deepEqual([usage.status, usage.stderr], [2, 'urnbase: unknown tests command "rnu"; try urnbase tests --help\n']);
  });

  it('draws a progress bar per page when given a terminal, and clears it before the summary', async () => {
    const drawn: string[] = [];
    const code = await testsCommand(['run', '--data-dir', dir], () => {}, (text) => drawn.push(text));
    assert.equal(code, 0);
    assert.match(drawn[0], /^\r\[#{20}\] 100% 3\/3 entities, [\d,]+\/s$/);
    assert.deepEqual(drawn.slice(1), ['\r\x1b[K']);
  });
});

describe('progress line', () => {
  it('shows the bar, percentage, counts and rate', () => {
    assert.equal(progressLine(4500, 10000, 1948), '[#########...........] 45% 4,500/10,000 entities, 2,310/s');
    assert.equal(progressLine(0, 0, 0), '[####################] 100% 0/0 entities, 0/s');
  });
});

describe('urnbase tests upsert: the token', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-tests-token-'));
  const dataDir = join(root, 'data');
  const saved = process.env.URNBASE_TOKEN;
  let t: TestApp;
  let url: string;
  before(async () => {
    delete process.env.URNBASE_TOKEN;
    t = await testApp({ dataDir, auth: true }, { sqlite: true });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    if (saved !== undefined) process.env.URNBASE_TOKEN = saved;
    await t.app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('uses <data-dir>/admin.token of the local server when no token is given', async () => {
    const file = join(root, 'tests.yaml');
    writeFileSync(file, EXAMPLE);
    const lines: string[] = [];
    assert.equal(await testsCommand(['upsert', '-f', file, '--url', url, '--data-dir', dataDir], (line) => lines.push(line)), 0);
    assert.deepEqual(lines, ['created   urn:li:test:has-owner', 'created   urn:li:test:described']);
  });
});

describe('urnbase tests run on PostgreSQL', { skip: (await postgresAvailable()) ? undefined : PG_SKIP_MESSAGE }, () => {
  it('works on the database of --database-url, as token, export and import do', async () => {
    const database = await createTestDatabase();
    try {
      const { app } = await buildApp({ dataDir: ':memory:', databaseUrl: database.url, logLevel: 'silent', bodyLimit: 1024 * 1024 });
      try {
        const ok = async (url: string, payload: object) => assert.equal((await app.inject({ method: 'POST', url, payload })).statusCode, 200);
        await ok(`${V2}/dataset/${enc(datasetUrn('pg.a'))}/ownership`, { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] });
        await ok(`${V2}/test/${enc('urn:li:test:owned')}/testInfo`, {
          name: 'Has owner',
          category: 'Governance',
          definition: { type: 'JSON', json: JSON.stringify({ on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }] }) },
        });
      } finally {
        await app.close();
      }
      const lines: string[] = [];
      assert.equal(await testsCommand(['run', '--database-url', database.url, '--workers', '0'], (line) => lines.push(line)), 0);
      assert.equal(lines[0], 'urn:li:test:owned  Has owner  selected 1  passing 1  failing 0');
    } finally {
      await database.drop();
    }
  });
});
