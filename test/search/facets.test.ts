import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { defineProperty } from '../structured/fixtures.js';
import { chartInfo, datasetUrn, domain, group, invalid, platform, scroll, tag, term, user, where, write, writeDatasets } from './fixtures.js';

/** Facets: value counts over the whole result (not the page), for keyword fields, properties and `entity`. */

const F1 = datasetUrn('facet.f1');
const F2 = datasetUrn('facet.f2');
const F3 = datasetUrn('facet.f3', 'snowflake');
const F4 = datasetUrn('facet.f4', 'snowflake');
const F5 = datasetUrn('facet.f5', 'kafka');
const C1 = 'urn:li:chart:(looker,facet.c1)';
const C2 = 'urn:li:chart:(looker,facet.c2)';

describe('search: facets', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const tier = await defineProperty(t, 'facet.tier', { entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'] });
    const retention = await defineProperty(t, 'facet.retention', { valueType: 'urn:li:dataType:datahub.number' });
    const when = await defineProperty(t, 'facet.when', { valueType: 'urn:li:dataType:datahub.date' });
    const prop = (urn: string, values: unknown[]) => ({ propertyUrn: urn, values });
    await writeDatasets(t, [
      [
        F1,
        {
          name: 'alpha',
          tags: [tag('pii'), tag('gold')],
          owners: [user('jdoe')],
          domains: [domain('finance')],
          subtypes: ['Table'],
          terms: [term('Sensitive')],
          removed: false,
          properties: [prop(tier, [{ string: 'gold' }]), prop(retention, [{ double: 30 }]), prop(when, [{ string: '2024-05-01' }])],
        },
      ],
      [
        F2,
        {
          name: 'beta',
          tags: [tag('pii')],
          owners: [user('jdoe'), group('analytics')],
          domains: [domain('finance')],
          subtypes: ['View'],
          removed: false,
          properties: [prop(tier, [{ string: 'silver' }]), prop(retention, [{ double: 30 }]), prop(when, [{ string: '2024-05-01' }])],
        },
      ],
      [
        F3,
        {
          name: 'gamma',
          qualifiedName: 'mkt.gamma',
          tags: [tag('gold')],
          owners: [user('alice')],
          domains: [domain('marketing')],
          subtypes: ['Table'],
          removed: false,
          properties: [prop(tier, [{ string: 'gold' }]), prop(retention, [{ double: 90 }]), prop(when, [{ string: '2023-01-01' }])],
        },
      ],
      // Soft-deleted: counted only with includeSoftDelete.
      [F4, { name: 'epsilon', tags: [tag('pii')], owners: [user('jdoe')], subtypes: ['Table'], removed: true, properties: [prop(tier, [{ string: 'gold' }])] }],
      [F5, { name: 'delta', removed: false }],
    ]);
    await write(t, 'chart', C1, 'chartInfo', chartInfo('alpha chart'));
    await write(t, 'chart', C1, 'globalTags', { tags: [{ tag: tag('pii') }] });
    await write(t, 'chart', C1, 'structuredProperties', { properties: [prop(tier, [{ string: 'gold' }])] });
    await write(t, 'chart', C2, 'chartInfo', chartInfo('other chart'));
  });
  after(() => t.app.close());

  const facetsOf = async (body: Record<string, unknown>, params: Record<string, string | number | boolean> = {}, version: 2 | 3 = 2) => {
    const res = await scroll(t, body, params, version);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.facets;
  };

  it('counts over the whole result, not the page', async () => {
    const res = await scroll(t, { entities: ['dataset'], facets: ['tags'] }, { count: 1 });
    assert.equal(res.status, 200);
    assert.equal(res.body.results.length, 1);
    assert.equal(res.body.totalCount, 4);
    assert.deepEqual(res.body.facets, [{ field: 'tags', aggregations: { [tag('gold')]: 2, [tag('pii')]: 2 } }]);
  });

  it('gives the same counts on every page', async () => {
    const first = await scroll(t, { entities: ['dataset'], facets: ['owners'] }, { count: 2 });
    const second = await scroll(t, { entities: ['dataset'], facets: ['owners'] }, { count: 2, scrollId: first.body.scrollId });
    assert.equal(second.status, 200);
    const expected = [{ field: 'owners', aggregations: { [user('jdoe')]: 2, [group('analytics')]: 1, [user('alice')]: 1 } }];
    assert.deepEqual(first.body.facets, expected);
    assert.deepEqual(second.body.facets, expected);
  });

  it('answers several fields at once, in the order asked', async () => {
    const facets = await facetsOf({ entities: ['dataset'], facets: ['platform', 'domains', 'subtypes', 'glossaryTerms'] });
    assert.deepEqual(facets, [
      { field: 'platform', aggregations: { [platform('hive')]: 2, [platform('kafka')]: 1, [platform('snowflake')]: 1 } },
      { field: 'domains', aggregations: { [domain('finance')]: 2, [domain('marketing')]: 1 } },
      { field: 'subtypes', aggregations: { Table: 2, View: 1 } },
      { field: 'glossaryTerms', aggregations: { [term('Sensitive')]: 1 } },
    ]);
  });

  it('counts whole names and qualified names (keyword fields)', async () => {
    const facets = await facetsOf({ entities: ['dataset', 'chart'], facets: ['name', 'qualifiedName'] }, { query: 'NOT alpha' });
    assert.deepEqual(facets, [
      { field: 'name', aggregations: { beta: 1, delta: 1, gamma: 1, 'other chart': 1 } },
      { field: 'qualifiedName', aggregations: { 'mkt.gamma': 1 } },
    ]);
  });

  it('counts only what the query matches', async () => {
    const facets = await facetsOf({ entities: ['dataset'], facets: ['tags', 'owners'] }, { query: 'platform:hive' });
    assert.deepEqual(facets, [
      { field: 'tags', aggregations: { [tag('pii')]: 2, [tag('gold')]: 1 } },
      { field: 'owners', aggregations: { [user('jdoe')]: 2, [group('analytics')]: 1 } },
    ]);
  });

  it('counts only what the filter matches', async () => {
    const facets = await facetsOf({ entities: ['dataset'], filter: where({ field: 'tags', values: [tag('gold')] }), facets: ['platform'] });
    assert.deepEqual(facets, [{ field: 'platform', aggregations: { [platform('hive')]: 1, [platform('snowflake')]: 1 } }]);
  });

  it('counts what a free-word query matches', async () => {
    const facets = await facetsOf({ entities: ['dataset', 'chart'], facets: ['entity', 'tags'] }, { query: 'alpha' });
    assert.deepEqual(facets, [
      { field: 'entity', aggregations: { chart: 1, dataset: 1 } },
      { field: 'tags', aggregations: { [tag('pii')]: 2, [tag('gold')]: 1 } },
    ]);
  });

  it('gives an empty aggregation when nothing in the result has the field', async () => {
    const facets = await facetsOf({ entities: ['dataset'], facets: ['domains'] }, { query: 'platform:kafka' });
    assert.deepEqual(facets, [{ field: 'domains', aggregations: {} }]);
  });

  it('leaves soft-deleted entities out of the counts unless includeSoftDelete=true', async () => {
    const hidden = await facetsOf({ entities: ['dataset'], facets: ['tags', 'removed'] });
    assert.deepEqual(hidden, [
      { field: 'tags', aggregations: { [tag('gold')]: 2, [tag('pii')]: 2 } },
      { field: 'removed', aggregations: { false: 4 } },
    ]);
    const shown = await facetsOf({ entities: ['dataset'], facets: ['tags', 'removed'] }, { includeSoftDelete: true });
    assert.deepEqual(shown, [
      { field: 'tags', aggregations: { [tag('pii')]: 3, [tag('gold')]: 2 } },
      { field: 'removed', aggregations: { false: 4, true: 1 } },
    ]);
  });

  it('counts structured-property values', async () => {
    const facets = await facetsOf({ entities: ['dataset'], facets: ['structuredProperties.facet.tier', 'structuredProperties.facet.retention'] });
    assert.deepEqual(facets, [
      { field: 'structuredProperties.facet.tier', aggregations: { gold: 2, silver: 1 } },
      { field: 'structuredProperties.facet.retention', aggregations: { '30': 2, '90': 1 } },
    ]);
  });

  it('counts each date value once, as the date', async () => {
    const facets = await facetsOf({ entities: ['dataset'], facets: ['structuredProperties.facet.when'] });
    assert.deepEqual(facets, [{ field: 'structuredProperties.facet.when', aggregations: { '2024-05-01': 2, '2023-01-01': 1 } }]);
  });

  it("answers a property facet under the name it was asked by (DataHub's underscore form too)", async () => {
    const facets = await facetsOf({ entities: ['dataset', 'chart'], facets: ['structuredProperties.facet_tier'] });
    assert.deepEqual(facets, [{ field: 'structuredProperties.facet_tier', aggregations: { gold: 3, silver: 1 } }]);
  });

  it('counts entities per type with the entity facet', async () => {
    const facets = await facetsOf({ entities: ['dataset', 'chart'], facets: ['entity'] });
    assert.deepEqual(facets, [{ field: 'entity', aggregations: { dataset: 4, chart: 2 } }]);
    const pii = await facetsOf({ filter: where({ field: 'tags', values: [tag('pii')] }), facets: ['entity'] });
    assert.deepEqual(pii, [{ field: 'entity', aggregations: { dataset: 2, chart: 1 } }]);
  });

  it('v2 answers no facets when none are asked for', async () => {
    assert.deepEqual(await facetsOf({ entities: ['dataset'] }), []);
  });

  it('v3 answers the entity facet when none are asked for', async () => {
    assert.deepEqual(await facetsOf({ entities: ['dataset', 'chart'] }, {}, 3), [{ field: 'entity', aggregations: { dataset: 4, chart: 2 } }]);
    assert.deepEqual(await facetsOf({ entities: ['dataset'] }, { query: 'tags:gold' }, 3), [{ field: 'entity', aggregations: { dataset: 2 } }]);
  });

  it('v3 answers only the facets asked for when some are', async () => {
    assert.deepEqual(await facetsOf({ entities: ['dataset'], facets: ['subtypes'] }, {}, 3), [{ field: 'subtypes', aggregations: { Table: 2, View: 1 } }]);
  });

  it('answers 400 for a facet on a text-only field', async () => {
    for (const field of ['description', 'fieldPaths']) {
      for (const version of [2, 3] as const) {
        const res = await scroll(t, { facets: [field] }, {}, version);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, invalid(`Cannot aggregate the text field ${field}`));
      }
    }
  });

  it('answers 400 for a facet on an unknown field or property', async () => {
    const res = await scroll(t, { facets: ['tags', 'colour'] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, invalid('Unknown search field colour'));
    const property = await scroll(t, { facets: ['structuredProperties.nope'] });
    assert.equal(property.status, 400);
    assert.deepEqual(property.body, invalid('Unknown structured property structuredProperties.nope'));
  });
});
