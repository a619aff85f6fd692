import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFixture } from '../smoke/runner.js';
import { openSmokeSession } from '../smoke/session.js';
import { unserved } from '../smoke/unserved.js';
import { loadOwnFixture } from './format.js';

/**
 * urnbase's own compatibility suite: request/response files in DataHub's smoke format, written
 * for urnbase from DataHub's documented and observed behaviour (see README.md beside them). Each
 * file runs against a fresh urnbase (SQLite, or PostgreSQL with URNBASE_TEST_POSTGRES=1) with
 * authentication on, as the `datahub` user, and every step must pass: status and whole body.
 */
const HERE = fileURLToPath(new URL('../../../test/compat/', import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const files = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(`${HERE}${d.name}`).filter((f) => f.endsWith('.json')).map((f) => `${d.name}/${f}`))
  .sort();

describe("urnbase's own compatibility suite", () => {
  it('has its files', () => {
    assert.ok(files.length >= 10, `only ${files.length} files under ${HERE}`);
  });

  for (const file of files) {
    it(file, async () => {
      const steps = loadOwnFixture(`${HERE}${file}`, { urnbase_version: VERSION });
      const session = await openSmokeSession();
      try {
        const results = await runFixture(steps, { transport: session.transport, token: session.token, unserved });
        const failures = results
          .filter((r) => r.outcome !== 'pass')
          .map((r) => `step ${r.index} (${r.description}): ${r.outcome}: ${r.reason}\n    sent: ${r.sent}`);
        if (failures.length > 0) assert.fail(`${failures.length} of ${results.length} steps of ${file} fail:\n${failures.join('\n')}`);
      } finally {
        await session.close();
      }
    });
  }
});
