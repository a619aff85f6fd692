import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { datasetUrn, testApp } from '../helpers.js';
import { aspect, brief, defineTest } from '../metatests/fixtures.js';
import { graphql } from './queries.js';

/** A mutation is a write like any other: metadata tests run on the change it makes. */

const IN_A_DOMAIN = { on: { types: ['dataset'] }, rules: [{ property: 'domains.domains', operator: 'exists' }] };

describe('GraphQL mutations and metadata tests on change', () => {
  it('re-evaluates the entity a mutation changed', async () => {
    const t = await testApp({ testsInterval: 0, testsOnChange: true });
    try {
      const test = await defineTest(t, 'in-a-domain', IN_A_DOMAIN);
      const urn = datasetUrn('metatests.sales');
      const domain = 'urn:li:domain:sales';
      await t.services.ingest.ingest(
        [
          { urn, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'sales' } },
          { urn: domain, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Sales' } },
        ],
        { actor: 'urn:li:corpuser:seed', source: 'test' },
      );
      await t.services.scheduler.idle();
      assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [], failing: [test] });
      const { body } = await graphql(t, `mutation { setDomain(entityUrn: "${urn}", domainUrn: "${domain}") }`);
      assert.deepEqual(body, { data: { setDomain: true } });
      await t.services.scheduler.idle();
      assert.deepEqual(brief(await aspect(t, 'dataset', urn, 'testResults')), { passing: [test], failing: [] });
    } finally {
      await t.app.close();
    }
  });
});
