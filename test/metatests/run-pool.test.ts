import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { SYSTEM_ACTOR } from '../../src/metatests/actions.js';
import type { RunSummary } from '../../src/metatests/catalog-runs.js';
import { datasetUrn, enc, V2 } from '../helpers.js';

/**
 * Catalog-wide runs on worker threads must come to exactly what a run on the calling thread does:
 * the same counts, the same stored results, the same actions, URN hops included.
 */
describe('catalog-wide runs on worker threads', () => {
  const dirs = { pooled: mkdtempSync(join(tmpdir(), 'urnbase-pool-')), inline: mkdtempSync(join(tmpdir(), 'urnbase-inline-')) };
  const urns = Array.from({ length: 45 }, (_, i) => datasetUrn(`pool.t${String(i).padStart(2, '0')}`));
  const term = (i: number) => (i % 3 === 0 ? 'urn:li:glossaryTerm:Sensitive' : 'urn:li:glossaryTerm:Public');
  const summaries: Partial<Record<keyof typeof dirs, RunSummary>> = {};

  const open = (dir: string, testsWorkers: number) =>
    // Worker threads from 10 entities on, so that a small catalog exercises them.
    buildApp({ dataDir: dir, logLevel: 'silent', bodyLimit: 1024 * 1024, testsWorkers, testsWorkersFrom: 10 });

  before(async () => {
    for (const [mode, dir] of Object.entries(dirs) as Array<[keyof typeof dirs, string]>) {
      const { app, services } = await open(dir, mode === 'pooled' ? 2 : 0);
      const post = async (url: string, payload: object) => {
        const res = await app.inject({ method: 'POST', url, payload });
        assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      };
      await post(`${V2}/glossaryNode/${enc('urn:li:glossaryNode:Classification')}/glossaryNodeInfo`, { definition: 'Classes', name: 'Classification' });
      for (const name of ['Sensitive', 'Public']) {
        await post(`${V2}/glossaryTerm/${enc(`urn:li:glossaryTerm:${name}`)}/glossaryTermInfo`, {
          definition: name,
          termSource: 'INTERNAL',
          ...(name === 'Sensitive' ? { parentNode: 'urn:li:glossaryNode:Classification' } : {}),
        });
      }
      await post(
        `${V2}/dataset?async=false`,
        urns.map((urn, i) => ({
          urn,
          aspects: {
            glossaryTerms: { value: { terms: [{ urn: term(i) }], auditStamp: { time: 0, actor: 'urn:li:corpuser:jane' } } },
            ...(i % 4 === 0 ? {} : { ownership: { value: { owners: [{ owner: 'urn:li:corpuser:jane', type: 'DATAOWNER' }] } } }),
          },
        })),
      );
      const definitions = {
        owned: { on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'exists' }], actions: { passing: [{ type: 'ADD_TAGS', values: ['urn:li:tag:Owned'] }] } },
        classified: { on: { types: ['dataset'] }, rules: [{ property: 'glossaryTerms.terms.urn.glossaryTermInfo.parentNode', operator: 'equals', value: 'urn:li:glossaryNode:Classification' }] },
      };
      for (const [id, definition] of Object.entries(definitions)) {
        await post(`${V2}/test/${enc(`urn:li:test:${id}`)}/testInfo`, { name: id, category: 'Pool', definition: { type: 'JSON', json: JSON.stringify(definition) } });
      }
      summaries[mode] = await services.tests.run({ push: true, actor: SYSTEM_ACTOR, pageSize: 7 });
      await app.close();
    }
  });
  after(() => Object.values(dirs).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('uses the worker threads when the scope is large enough, and the calling thread otherwise', () => {
    assert.equal(summaries.pooled?.workers, 2);
    assert.equal(summaries.inline?.workers, 0);
  });

  it('counts every entity once, as the calling thread does', () => {
    const counts = (s: RunSummary | undefined) => s && { entities: s.entities, tests: [...s.tests].sort((a, b) => a.urn.localeCompare(b.urn)) };
    assert.deepEqual(counts(summaries.pooled), counts(summaries.inline));
    assert.deepEqual(counts(summaries.pooled), {
      entities: 45,
      tests: [
        { urn: 'urn:li:test:classified', name: 'classified', selected: 45, passing: 15, failing: 30 },
        { urn: 'urn:li:test:owned', name: 'owned', selected: 45, passing: 33, failing: 12 },
      ],
    });
  });

  it('stores the same results and runs the same actions', async () => {
    const stored: Record<string, unknown[]> = {};
    for (const [mode, dir] of Object.entries(dirs)) {
      const { app } = await open(dir, 0);
      stored[mode] = [];
      for (const urn of urns) {
        const read = async (aspect: string) => {
          const res = await app.inject({ method: 'GET', url: `${V2}/dataset/${enc(urn)}/${aspect}` });
          return res.statusCode === 404 ? undefined : (JSON.parse(res.body).value as unknown);
        };
        const results = (await read('testResults')) as { passing: Array<{ test: string }>; failing: Array<{ test: string }> };
        const tags = (await read('globalTags')) as { tags: Array<{ tag: string }> } | undefined;
        stored[mode].push({
          passing: results.passing.map((r) => r.test).sort(),
          failing: results.failing.map((r) => r.test).sort(),
          tags: tags?.tags.map((t) => t.tag) ?? [],
        });
      }
      await app.close();
    }
    assert.deepEqual(stored.pooled, stored.inline);
    assert.deepEqual(stored.pooled[0], { passing: ['urn:li:test:classified'], failing: ['urn:li:test:owned'], tags: [] });
    assert.deepEqual(stored.pooled[1], { passing: ['urn:li:test:owned'], failing: ['urn:li:test:classified'], tags: ['urn:li:tag:Owned'] });
  });
});
