import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

// The layer rules (.dependency-cruiser.cjs) run on a small made-up src/ tree, so a rule that
// silently matches nothing (a regex typo, a moved folder) fails here rather than letting
// violations through. `npm run lint:deps` runs the same rules on the real src/.
const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so `fastify` resolves to the real node_modules.
const fixture = join(root, 'dist', `layers-fixture-${process.pid}`);

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  'test/helpers.ts': 'export const helper = 1;\n',
  // Allowed: downwards, within a folder, type-only, composition roots, store/open.ts.
  'src/errors.ts': 'export class DomainError extends Error {}\n',
  'src/urn/urn.ts': "import { DomainError } from '../errors.js';\nexport const urn = DomainError;\n",
  'src/store/store.ts': "import type { DomainError } from '../errors.js';\nexport interface Store { e?: DomainError }\n",
  'src/store/sqlite.ts': "import type { Store } from './store.js';\nexport type SqliteStore = Store;\n",
  'src/store/sqlite-writer.ts': "import type { SqliteStore } from './sqlite.js';\nexport type W = SqliteStore;\n",
  'src/store/sqlite/store.ts': 'export type S = 1;\n',
  'src/store/postgres-migrate.ts': 'export type M = 1;\n',
  'src/store/postgres/schema.ts': "import type { S } from '../sqlite/store.js';\nexport type P = S;\n",
  'src/store/open.ts': "import type { SqliteStore } from './sqlite.js';\nimport type { S } from './sqlite/store.js';\nimport type { P } from './postgres/schema.js';\nexport type Open = [SqliteStore, S, P];\n",
  'src/read/read.ts': "import type { Store } from '../store/store.js';\nimport type { Proposal } from '../ingest/proposal.js';\nexport type R = [Store, Proposal];\n",
  'src/ingest/proposal.ts': "import type { Plugin } from './plugins.js';\nexport interface Proposal { p?: Plugin }\n",
  'src/ingest/plugins.ts': "import type { Proposal } from './proposal.js';\nexport interface Plugin { p?: Proposal }\n",
  'src/events/retention.ts': "import type { FastifyBaseLogger } from 'fastify';\nexport type Log = FastifyBaseLogger;\n",
  'src/metatests/service.ts': "import type { Proposal } from '../ingest/proposal.js';\nexport type T = Proposal;\n",
  'src/metatests/run-worker.ts': "import type { Core } from '../core.js';\nimport type { SqliteStore } from '../store/sqlite.js';\nexport type W = [Core, SqliteStore];\n",
  'src/transfer/import.ts': "import type { T } from '../metatests/service.js';\nexport type I = T;\n",
  'src/core.ts': "import type { T } from './metatests/service.js';\nexport type Core = T;\n",
  'src/api/search.ts': "import type { FastifyInstance } from 'fastify';\nimport type { V2 } from './v2/search.js';\nexport type Shared = [FastifyInstance, V2];\n",
  'src/api/v2/search.ts': "import type { Core } from '../../core.js';\nexport type V2 = Core;\n",
  'src/api/v3/scroll.ts': "import type { V2 } from '../v2/search.js';\nimport type { Shared } from '../search.js';\nexport type V3 = [V2, Shared];\n",
  'src/app.ts': "import type { V3 } from './api/v3/scroll.js';\nexport type App = V3;\n",
  'src/cli/migrate.ts': "import type { App } from '../app.js';\nimport type { M } from '../store/postgres-migrate.js';\nimport type { S } from '../store/sqlite/store.js';\nexport type C = [App, M, S];\n",
  'src/main.ts': "import type { C } from './cli/migrate.js';\nimport type { FastifyInstance } from 'fastify';\nexport type Main = [C, FastifyInstance];\n",
  'src/urn/helper-user.ts': "import { helper } from '../../test/helpers.js';\nimport { gone } from './gone.js';\nexport const h = [helper, gone];\n",
  'src/widgets/widget.ts': "import { urn } from '../urn/urn.js';\nexport const w = urn;\n",
  'src/registry/registry.ts': "import { w } from '../widgets/widget.js';\nexport const r = w;\n",
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let violations: string[];

before(async () => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), text);
  }
  const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const run = promisify(execFile);
  // Exits non-zero when there are violations: that is the point here.
  const { stdout } = await run(process.execPath, [cli, 'src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd: fixture,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout: string }) => error);
  const result = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  const named = (to: string) => to.replace(/^.*node_modules\/([^/]+)\/.*$/, 'npm:$1');
  violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${named(v.to)}`).sort();
});

after(() => rmSync(fixture, { recursive: true, force: true }));

describe('layer rules (.dependency-cruiser.cjs)', () => {
  it('refuses import cycles, type-only ones too', () => {
    // Reported from whichever end of the cycle the cruise meets first.
    const cycles = violations.filter((v) => v.startsWith('no-circular:'));
    assert.ok(cycles.length > 0, violations.join('\n'));
    for (const cycle of cycles) {
      assert.match(cycle, /^no-circular: src\/ingest\/(plugins|proposal)\.ts -> src\/ingest\/(plugins|proposal)\.ts$/);
    }
  });

  it('refuses imports up the layer list', () => {
    assert.ok(violations.includes('layer-src-read: src/read/read.ts -> src/ingest/proposal.ts'));
  });

  it('refuses imports between the folders of one layer', () => {
    assert.ok(violations.includes('layer-src-transfer: src/transfer/import.ts -> src/metatests/service.ts'));
  });

  it('keeps the API versions apart, and the api/ root below them', () => {
    assert.ok(violations.includes('api-versions-apart: src/api/v3/scroll.ts -> src/api/v2/search.ts'));
    assert.ok(violations.includes('api-root-shared: src/api/search.ts -> src/api/v2/search.ts'));
  });

  it('lets only store/open.ts open SQLite and PostgreSQL stores, under the old file names and the new folders', () => {
    for (const expected of [
      'sqlite-behind-open: src/metatests/run-worker.ts -> src/store/sqlite.ts',
      'sqlite-behind-open: src/cli/migrate.ts -> src/store/sqlite/store.ts',
      'sqlite-behind-open: src/store/postgres/schema.ts -> src/store/sqlite/store.ts',
      'postgres-behind-open: src/cli/migrate.ts -> src/store/postgres-migrate.ts',
    ]) {
      assert.ok(violations.includes(expected), expected);
    }
  });

  it('keeps Fastify in api/, app.ts and main.ts', () => {
    assert.ok(violations.includes('fastify-at-the-edge: src/events/retention.ts -> npm:fastify'));
  });

  it('refuses imports of test/ from src/, unresolvable imports, and folders in no layer', () => {
    for (const expected of [
      'no-test-code-in-src: src/urn/helper-user.ts -> test/helpers.ts',
      'unresolvable: src/urn/helper-user.ts -> ./gone.js',
      'outside-the-layers: src/widgets/widget.ts -> src/urn/urn.ts',
      'into-no-layer: src/registry/registry.ts -> src/widgets/widget.ts',
    ]) {
      assert.ok(violations.includes(expected), expected);
    }
  });

  it('finds nothing else: imports down the list, composition roots and store/open.ts pass', () => {
    assert.deepEqual(violations.filter((v) => !v.startsWith('no-circular:')), [
      'api-root-shared: src/api/search.ts -> src/api/v2/search.ts',
      'api-versions-apart: src/api/v3/scroll.ts -> src/api/v2/search.ts',
      'fastify-at-the-edge: src/events/retention.ts -> npm:fastify',
      'into-no-layer: src/registry/registry.ts -> src/widgets/widget.ts',
      'layer-src-read: src/read/read.ts -> src/ingest/proposal.ts',
      'layer-src-transfer: src/transfer/import.ts -> src/metatests/service.ts',
      'no-test-code-in-src: src/urn/helper-user.ts -> test/helpers.ts',
      'outside-the-layers: src/widgets/widget.ts -> src/urn/urn.ts',
      'postgres-behind-open: src/cli/migrate.ts -> src/store/postgres-migrate.ts',
      'sqlite-behind-open: src/cli/migrate.ts -> src/store/sqlite/store.ts',
      'sqlite-behind-open: src/metatests/run-worker.ts -> src/store/sqlite.ts',
      'sqlite-behind-open: src/store/postgres/schema.ts -> src/store/sqlite/store.ts',
      'unresolvable: src/urn/helper-user.ts -> ./gone.js',
    ]);
  });
});
