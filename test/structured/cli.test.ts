import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { propertiesCommand } from '../../src/cli/properties.js';
import { ConfigError } from '../../src/config.js';
import { propertiesFromYaml } from '../../src/structured/yaml.js';
import { YamlFileError } from '../../src/yaml-list.js';
import { testApp, type TestApp } from '../helpers.js';

const EXAMPLE = `
- id: com.example.privacy.retentionTime
  qualified_name: com.example.privacy.retentionTime
  type: number
  cardinality: MULTIPLE
  display_name: Retention Time
  entity_types:
    - dataset
    - urn:li:entityType:datahub.dataFlow
  description: "Retention Time is used to figure out how long to retain records in a dataset"
  allowed_values:
    - value: 30
      description: 30 days, usually reserved for datasets that are ephemeral and contain pii
    - value: 365
- urn: urn:li:structuredProperty:com.example.dataManagement.steward
  type: URN
  type_qualifier:
    allowed_types:
      - corpuser
      - corpGroup
  display_name: Steward
  entity_types: [dataset]
  immutable: true
  version: '20240614080000'
`;

describe('structured property YAML (datahub properties upsert format)', () => {
  it('maps every field to a definition', () => {
    assert.deepEqual(propertiesFromYaml(EXAMPLE, 'props.yaml'), [
      {
        urn: 'urn:li:structuredProperty:com.example.privacy.retentionTime',
        definition: {
          qualifiedName: 'com.example.privacy.retentionTime',
          valueType: 'urn:li:dataType:datahub.number',
          cardinality: 'MULTIPLE',
          entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.dataFlow'],
          displayName: 'Retention Time',
          description: 'Retention Time is used to figure out how long to retain records in a dataset',
          allowedValues: [
            { value: { double: 30 }, description: '30 days, usually reserved for datasets that are ephemeral and contain pii' },
            { value: { double: 365 } },
          ],
        },
      },
      {
        urn: 'urn:li:structuredProperty:com.example.dataManagement.steward',
        definition: {
          qualifiedName: 'com.example.dataManagement.steward',
          valueType: 'urn:li:dataType:datahub.urn',
          cardinality: 'SINGLE',
          entityTypes: ['urn:li:entityType:datahub.dataset'],
          displayName: 'Steward',
          typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser', 'urn:li:entityType:datahub.corpGroup'] },
          immutable: true,
          version: '20240614080000',
        },
      },
    ]);
  });

  const bad: Array<[string, string, string]> = [
    ['no id', '- type: string\n  entity_types: [dataset]', 'p.yaml: [0].id: one of id, urn or qualified_name is required'],
    ['an unknown type', '- id: a\n  type: numbr\n  entity_types: [dataset]', 'p.yaml: [0].type: unknown type "numbr" (expected one of string, rich_text, number, date, urn)'],
    ['no entity types', '- id: a\n  type: string', 'p.yaml: [0].entity_types: expected a non-empty list of entity types'],
    ['a text allowed value for a number', '- id: a\n  type: number\n  entity_types: [dataset]\n  allowed_values:\n    - value: ten', 'p.yaml: [0].allowed_values[0].value: expected a number for a number property'],
    ['a mismatched qualified_name', '- id: a\n  qualified_name: b\n  type: string\n  entity_types: [dataset]', 'p.yaml: [0].qualified_name: "b" must equal the id "a"'],
    ['an unknown field', '- id: a\n  type: string\n  entity_types: [dataset]\n  colour: red', 'p.yaml: [0].colour: unknown field (expected one of id, urn, qualified_name, type, cardinality, display_name, description, entity_types, allowed_values, type_qualifier, immutable, version)'],
    ['a document that is not a list', 'id: a', 'p.yaml: expected a list of properties'],
  ];
  for (const [why, text, message] of bad) {
    it(`points at the spot for ${why}`, () => {
      assert.throws(() => propertiesFromYaml(text, 'p.yaml'), (e: unknown) => e instanceof YamlFileError && e.message === message);
    });
  }
});

describe('urnbase properties upsert / list', () => {
  let t: TestApp;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-props-'));
  before(async () => {
    t = await testApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await t.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await propertiesCommand([...argv, '--url', url], (line) => lines.push(line));
    return { code, lines };
  };

  it('creates, then reports unchanged, then updated, and reports validation errors per property', async () => {
    const file = join(dir, 'props.yaml');
    writeFileSync(file, EXAMPLE);
    assert.deepEqual(await run('upsert', '-f', file), {
      code: 0,
      lines: ['created   urn:li:structuredProperty:com.example.privacy.retentionTime', 'created   urn:li:structuredProperty:com.example.dataManagement.steward'],
    });
    assert.deepEqual(await run('upsert', '-f', file), {
      code: 0,
      lines: ['unchanged urn:li:structuredProperty:com.example.privacy.retentionTime', 'unchanged urn:li:structuredProperty:com.example.dataManagement.steward'],
    });
    writeFileSync(file, EXAMPLE.replace('display_name: Steward', 'display_name: Data steward').replace('    - value: 365\n', ''));
    assert.deepEqual(await run('upsert', '-f', file), {
      code: 1,
      lines: [
        'error     urn:li:structuredProperty:com.example.privacy.retentionTime: Cannot restrict values that were previously allowed: urn:li:structuredProperty:com.example.privacy.retentionTime no longer allows {double=365}; raise the version (yyyyMMddHHmmss) to make this breaking change',
        'updated   urn:li:structuredProperty:com.example.dataManagement.steward',
      ],
    });
  });

  it('reports a file error with the file and the spot', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, '- id: a\n  type: numbr\n  entity_types: [dataset]\n');
    assert.deepEqual(await run('upsert', '-f', file), {
      code: 1,
      lines: [`error     ${file}: [0].type: unknown type "numbr" (expected one of string, rich_text, number, date, urn)`],
    });
  });

  it('lists definitions with type, cardinality, entity types and soft deletion', async () => {
    await t.call({
      method: 'POST',
      url: `/openapi/v2/entity/structuredProperty/${encodeURIComponent('urn:li:structuredProperty:com.example.dataManagement.steward')}/status`,
      payload: { removed: true },
    });
    assert.deepEqual(await run('list'), {
      code: 0,
      lines: [
        'urn:li:structuredProperty:com.example.dataManagement.steward  urn  SINGLE  dataset  (soft deleted)',
        'urn:li:structuredProperty:com.example.privacy.retentionTime  number  MULTIPLE  dataset,dataFlow',
      ],
    });
  });
});

describe('urnbase properties: the token', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-props-token-'));
  const dataDir = join(root, 'data');
  const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
  const file = join(root, 'props.yaml');
  const saved = process.env.URNBASE_TOKEN;
  let t: TestApp;
  let url: string;
  before(async () => {
    delete process.env.URNBASE_TOKEN;
    writeFileSync(file, EXAMPLE);
    // A server with auth on, started on a fresh data dir: it wrote its first admin token there.
    t = await testApp({ dataDir, auth: true }, { sqlite: true });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    if (saved !== undefined) process.env.URNBASE_TOKEN = saved;
    await t.app.close();
    rmSync(root, { recursive: true, force: true });
  });
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await propertiesCommand(argv, (line) => lines.push(line));
    return { code, lines };
  };
  /** `urnbase …` as a process (asynchronously: the server answering it runs in this one). */
  const urnbase = async (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
    if (!options.env?.URNBASE_TOKEN) delete env.URNBASE_TOKEN;
    if (!options.env?.URNBASE_DATA_DIR) delete env.URNBASE_DATA_DIR;
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, ...args], { cwd: options.cwd, env });
      return { status: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { status: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('upsert without --token uses the admin token the server wrote to <data-dir>/admin.token', async () => {
    assert.deepEqual(await run('upsert', '-f', file, '--url', url, '--data-dir', dataDir), {
      code: 0,
      lines: ['created   urn:li:structuredProperty:com.example.privacy.retentionTime', 'created   urn:li:structuredProperty:com.example.dataManagement.steward'],
    });
  });

  it('reads ./data/admin.token by default, like serve, and $URNBASE_DATA_DIR when set', async () => {
    const listed = [
      'urn:li:structuredProperty:com.example.dataManagement.steward  urn  SINGLE  dataset',
      'urn:li:structuredProperty:com.example.privacy.retentionTime  number  MULTIPLE  dataset,dataFlow',
      '',
    ].join('\n');
    const byDefault = await urnbase(['properties', 'list', '--url', url], { cwd: root });
    assert.deepEqual([byDefault.status, byDefault.stderr, byDefault.stdout], [0, '', listed]);
    const byEnv = await urnbase(['properties', 'list', '--url', url], { cwd: tmpdir(), env: { URNBASE_DATA_DIR: dataDir } });
    assert.deepEqual([byEnv.status, byEnv.stderr, byEnv.stdout], [0, '', listed]);
  });

  it('sends --token, then $URNBASE_TOKEN, before the file (an explicit bad token fails as before, per item)', async () => {
    const refused = { code: 1, lines: ['error     Invalid, expired or revoked token'] };
    assert.deepEqual(await run('list', '--url', url, '--data-dir', dataDir, '--token', 'urnb_not-a-token-0000000000000000000000000'), refused);
    process.env.URNBASE_TOKEN = 'urnb_not-a-token-0000000000000000000000000';
    try {
      assert.deepEqual(await run('list', '--url', url, '--data-dir', dataDir), refused);
    } finally {
      delete process.env.URNBASE_TOKEN;
    }
  });

  it('without a token file, stops with one line naming the file and how to pass a token (exit 2)', async () => {
    const missing = join(root, 'elsewhere', 'admin.token');
    const result = await urnbase(['properties', 'upsert', '-f', file, '--url', url, '--data-dir', join(root, 'elsewhere')]);
    assert.deepEqual([result.status, result.stdout], [2, '']);
    assert.equal(
      result.stderr,
      `urnbase: ${url} needs a token and none was given (no ${missing}): pass --token TOKEN or set URNBASE_TOKEN, or point --data-dir at the server's data dir\n`,
    );
  });

  it('stops with one line naming the file when the server refuses the token in it (exit 2)', async () => {
    const stale = join(root, 'stale');
    mkdirSync(stale);
    writeFileSync(join(stale, 'admin.token'), 'urnb_a-token-of-a-catalog-since-wiped-000000000\n');
    await assert.rejects(
      run('list', '--url', url, '--data-dir', stale),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === `${url} refused the token in ${join(stale, 'admin.token')} (Invalid, expired or revoked token): pass --token TOKEN or set URNBASE_TOKEN`,
    );
  });
});
