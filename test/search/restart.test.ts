import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { defineProperty } from '../structured/fixtures.js';
import { datasetUrn, list, tag, writeDatasets } from './fixtures.js';

/** The index is on disk with the aspects: it survives a restart, and is rebuilt when it has to be. */

const A = datasetUrn('restart.orders');
const B = datasetUrn('restart.customers', 'snowflake');

describe('search: across restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-search-'));
  const open = () => testApp({ dataDir: dir });
  let answers: Record<string, unknown>;

  /** The same searches, each as its whole answer. */
  const QUERIES = ['orders', 'tags:pii', 'platform:snowflake', 'structuredProperties.restart.when:>2024-01-01', 'structuredProperties.restart.days:<10', 'name:customers', '_exists_:description'];
  const answer = async (t: TestApp) => {
    const out: Record<string, unknown> = {};
    for (const query of QUERIES) {
      const res = await list(t, 'dataset', { query, aspects: 'datasetKey' });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      out[query] = { urns: res.body.results.map((r: { urn: string }) => r.urn), total: res.body.totalCount };
    }
    const facets = await t.call({ method: 'POST', url: '/openapi/v2/entity/scroll', payload: { facets: ['tags', 'structuredProperties.restart.days'] } });
    out.facets = facets.body.facets;
    return out;
  };

  before(async () => {
    const t = await open();
    try {
      const when = await defineProperty(t, 'restart.when', { valueType: 'urn:li:dataType:datahub.date' });
      const days = await defineProperty(t, 'restart.days', { valueType: 'urn:li:dataType:datahub.number' });
      await writeDatasets(t, [
        [A, { name: 'orders', description: 'placed orders', tags: [tag('pii')], properties: [{ propertyUrn: when, values: [{ string: '2024-03-01' }] }, { propertyUrn: days, values: [{ double: 5 }] }] }],
        [B, { name: 'customers', tags: [tag('gold')], properties: [{ propertyUrn: when, values: [{ string: '2023-03-01' }] }, { propertyUrn: days, values: [{ double: 50 }] }] }],
      ]);
      answers = await answer(t);
    } finally {
      await t.app.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the same after a restart', async () => {
    assert.deepEqual(answers, {
      orders: { urns: [A], total: 1 },
      'tags:pii': { urns: [A], total: 1 },
      'platform:snowflake': { urns: [B], total: 1 },
      'structuredProperties.restart.when:>2024-01-01': { urns: [A], total: 1 },
      'structuredProperties.restart.days:<10': { urns: [A], total: 1 },
      'name:customers': { urns: [B], total: 1 },
      '_exists_:description': { urns: [A], total: 1 },
      facets: [
        { field: 'tags', aggregations: { [tag('gold')]: 1, [tag('pii')]: 1 } },
        { field: 'structuredProperties.restart.days', aggregations: { '5': 1, '50': 1 } },
      ],
    });
    const t = await open();
    try {
      assert.deepEqual(await answer(t), answers);
    } finally {
      await t.app.close();
    }
  });

  it('rebuilds an index that is missing or of another version at start, with the same answers', async () => {
    const first = await open();
    try {
      await first.services.store.clearSearchIndex();
      await first.services.store.setSearchIndexVersion('');
    } finally {
      await first.app.close();
    }
    const t = await open();
    try {
      assert.deepEqual(await answer(t), answers);
    } finally {
      await t.app.close();
    }
  });
});
