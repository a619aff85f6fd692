import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ignoredResponseKeys, loadFixture } from './fixture.js';
import { runFixture, type StepResult } from './runner.js';
import { openSmokeSession } from './session.js';
import { unserved } from './unserved.js';

/**
 * DataHub's own smoke fixtures (smoke-test/tests/openapi/*\/*.json) run from a DataHub checkout,
 * never from this tree: URNBASE_DATAHUB_SMOKE names the folder (`npm run test:datahub`, see
 * docs/api.md for how to get it). Each file runs against a fresh urnbase, step by step. Every step
 * must pass, except those listed in expected-failures.json, which must fail for the reason listed
 * there: a listed step that starts passing fails this test too, so the list stays true.
 *
 * Unlike DataHub's runner, `wait` steps do not sleep: urnbase answers a write only once it is
 * committed, search index included, so the next request already sees it. And a route urnbase does
 * not serve never passes a step, even one whose status_codes allow its 404.
 *
 * SMOKE_RESULTS=<file> writes every step's verdict there as JSON (for pruning the list).
 */
const HERE = fileURLToPath(new URL('../../../test/smoke/', import.meta.url));
const FOLDER = process.env.URNBASE_DATAHUB_SMOKE;
const FIXTURES = FOLDER ? `${FOLDER.replace(/\/+$/, '')}/` : '';
const SKIP = FOLDER
  ? false
  : "URNBASE_DATAHUB_SMOKE is not set: to run DataHub's own smoke fixtures, point it at a DataHub checkout's smoke-test/tests/openapi " +
    '(URNBASE_DATAHUB_SMOKE=/path/to/datahub/smoke-test/tests/openapi npm run test:datahub; docs/api.md says how to get the folder)';

interface Expected {
  file: string;
  step: number;
  /** The step's method and path (no query), as the file has them: a renumbered file shows here. */
  request: string;
  reason: string;
  fails_with: string;
}

const expectedDoc = JSON.parse(readFileSync(`${HERE}expected-failures.json`, 'utf8')) as { datahub_only: Expected[] };
const expected = new Map<string, Expected & { section: string }>();
for (const section of ['datahub_only'] as const) {
  for (const entry of expectedDoc[section]) {
    const key = `${entry.file}#${entry.step}`;
    assert.ok(!expected.has(key), `expected-failures.json lists ${key} twice`);
    expected.set(key, { ...entry, section });
  }
}

/** DataHub's runner globs `tests/openapi/*\/*.json`: one directory level, JSON files. */
function fixtureFiles(): string[] {
  if (!FOLDER) return [];
  if (!existsSync(FIXTURES) || !statSync(FIXTURES).isDirectory()) throw new Error(`URNBASE_DATAHUB_SMOKE=${FOLDER} is not a folder`);
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(`${FIXTURES}${d.name}`).filter((f) => f.endsWith('.json')).map((f) => `${d.name}/${f}`))
    .sort();
}
const files = fixtureFiles();

interface FileReport {
  file: string;
  results: StepResult[];
}
const reports: FileReport[] = [];

describe("DataHub's smoke fixtures, from a DataHub checkout", { skip: SKIP }, () => {
  after(() => {
    if (reports.length > 0) console.log(summary(reports));
    const out = process.env.SMOKE_RESULTS;
    if (out) writeFileSync(out, JSON.stringify(reports, null, 2) + '\n');
  });

  it('finds the fixture files, and every expected failure names a request step of one', () => {
    assert.ok(files.length >= 14, `only ${files.length} fixture files found under ${FIXTURES}`);
    for (const entry of expected.values()) {
      assert.ok(files.includes(entry.file), `expected-failures.json names ${entry.file}, which is not in ${FIXTURES}`);
      const steps = loadFixture(`${FIXTURES}${entry.file}`, { unique_id: 'x' });
      const step = steps[entry.step];
      assert.ok(step && step.kind === 'request', `expected-failures.json names ${entry.file} step ${entry.step}, which is not a request step`);
      const request = `${step.request.method.toUpperCase()} ${step.request.url.split('?')[0]}`;
      assert.equal(request, entry.request, `${entry.file} step ${entry.step}: the request in expected-failures.json is not the file's (renumbered?)`);
      assert.ok(entry.fails_with.length > 0 && entry.reason.length > 0, `${entry.file} step ${entry.step}: reason and fails_with must say something`);
    }
  });

  it("runs with authentication on, as the datahub user whose actor DataHub's fixtures expect", async () => {
    const session = await openSmokeSession();
    try {
      const read = { method: 'GET', url: '/openapi/v2/entity/dataPlatform/urn%3Ali%3AdataPlatform%3Ahive', headers: {} };
      assert.equal((await session.transport(read)).status, 401);
      assert.equal((await session.transport({ ...read, headers: { authorization: `Bearer ${session.token}` } })).status, 200);
      const write = await session.transport({
        method: 'POST',
        url: '/openapi/v2/entity/tag/urn%3Ali%3Atag%3Asmoke/status?systemMetadata=true',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        body: '{"removed": false}',
      });
      assert.equal(write.status, 200, write.body);
      assert.equal(JSON.parse(write.body).aspects.status.systemMetadata.aspectCreated.actor, 'urn:li:corpuser:datahub');
    } finally {
      await session.close();
    }
  });

  for (const file of files) {
    it(file, async () => {
      // Newer fixtures name their entities {unique_id} so reruns on one server do not collide.
      const steps = loadFixture(`${FIXTURES}${file}`, { unique_id: randomBytes(4).toString('hex') });
      const session = await openSmokeSession();
      let results: StepResult[];
      try {
        results = await runFixture(steps, { transport: session.transport, token: session.token, sleep: async () => {}, unserved });
      } finally {
        await session.close();
      }
      reports.push({ file, results });
      const problems: string[] = [];
      for (const result of results) {
        const listed = expected.get(`${file}#${result.index}`);
        const step = `${file} step ${result.index} (${result.description ?? 'no description'})`;
        if (result.outcome === 'waited' || result.outcome === 'skipped') {
          if (listed) problems.push(`${step} is ${result.outcome}, yet listed in expected-failures.json`);
          continue;
        }
        if (!listed) {
          if (result.outcome === 'fail') problems.push(`${step} fails: ${result.reason}\n    sent: ${result.sent}`);
          continue;
        }
        if (result.outcome === 'pass') {
          problems.push(`${step} passes now: remove it from ${listed.section} in expected-failures.json`);
        } else if (!result.reason!.includes(listed.fails_with)) {
          problems.push(`${step} fails, but not with «${listed.fails_with}» (${listed.reason}): ${result.reason}`);
        }
      }
      if (problems.length > 0) assert.fail(`${problems.length} step(s) of ${file} not as expected:\n${problems.join('\n')}`);
    });
  }
});

/** The per-file table the README's compatibility section quotes. */
function summary(all: FileReport[]): string {
  const rows = [...all].sort((a, b) => (a.file < b.file ? -1 : 1)).map(({ file, results }) => {
    const requests = results.filter((r) => r.outcome !== 'waited');
    const count = (section: string) => requests.filter((r) => r.outcome === 'fail' && expected.get(`${file}#${r.index}`)?.section === section).length;
    const listed = count('datahub_only');
    return {
      file,
      steps: requests.length,
      passing: requests.filter((r) => r.outcome === 'pass').length,
      datahubOnly: count('datahub_only'),
      skipped: requests.filter((r) => r.outcome === 'skipped').length,
      unexpected: requests.filter((r) => r.outcome === 'fail').length - listed,
    };
  });
  const total = rows.reduce(
    (t, r) => ({ ...t, steps: t.steps + r.steps, passing: t.passing + r.passing, datahubOnly: t.datahubOnly + r.datahubOnly, skipped: t.skipped + r.skipped, unexpected: t.unexpected + r.unexpected }),
    { file: 'total', steps: 0, passing: 0, datahubOnly: 0, skipped: 0, unexpected: 0 },
  );
  const lines = [
    '| fixture file | steps | passing | DataHub-only | skipped by DataHub | other failures |',
    '|---|---:|---:|---:|---:|---:|',
    ...[...rows, total].map((r) => `| ${r.file} | ${r.steps} | ${r.passing} | ${r.datahubOnly} | ${r.skipped} | ${r.unexpected} |`),
  ];
  const unchecked = files.flatMap((file) =>
    [...ignoredResponseKeys(readFileSync(`${FIXTURES}${file}`, 'utf8'))].map(([step, keys]) => `${file} step ${step} (${keys.join(', ')})`),
  );
  if (unchecked.length > 0) lines.push('', `Response keys neither DataHub's runner nor this one reads (status checked only): ${unchecked.join('; ')}`);
  return `\nDataHub smoke fixtures on urnbase (${process.env.URNBASE_TEST_POSTGRES === '1' ? 'PostgreSQL' : 'SQLite'}); steps exclude wait steps\n${lines.join('\n')}\n`;
}
